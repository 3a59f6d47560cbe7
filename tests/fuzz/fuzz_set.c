/* tests/fuzz/fuzz_set.c: libFuzzer harness for --set (config_set). The
 * input is up to 8 assignments, one per line, applied in turn as pnrsim
 * applies repeated --set options (an argument cannot hold a NUL byte, so
 * inputs with one are skipped). After each: no crash, configuration
 * unchanged on error, a successful one round-trips through --print-config
 * (fuzz_config.h). Seeds: one line per key of configs/reference.ini. */
#include "tests/fuzz/fuzz_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (memchr(data, '\0', size))
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    config c;
    config_defaults(&c);
    char *line = text;
    for (int i = 0; i < 8 && line; i++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        config before = c;
        char err[CFG_ERR_MAX] = "";
        int rc = config_set(&c, line, err);
        fuzz_config_after(rc, &before, &c, err);
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return 0;
}
