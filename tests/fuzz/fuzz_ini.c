/* tests/fuzz/fuzz_ini.c: libFuzzer harness for the INI configuration
 * reader (config_load_ini): no crash, configuration unchanged on error, a
 * successful read round-trips through --print-config (fuzz_config.h).
 * Seeds: the .ini files of configs/. */
#include "tests/fuzz/fuzz_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_path("in.ini");
    fuzz_write(path, data, size);
    config before, c;
    config_defaults(&before);
    c = before;
    char err[CFG_ERR_MAX] = "";
    int rc = config_load_ini(&c, path, err);
    fuzz_config_after(rc, &before, &c, err);
    /* The format detection of -c on the same bytes: same contract. */
    config d = before;
    err[0] = '\0';
    rc = config_load(&d, path, err);
    fuzz_config_after(rc, &before, &d, err);
    return 0;
}
