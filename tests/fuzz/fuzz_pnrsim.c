/* tests/fuzz/fuzz_pnrsim.c: libFuzzer harness for the reader of PNRSim's
 * own "Name value" files (config_load_pnrsim): no crash, configuration
 * unchanged on error, a successful read round-trips through --print-config
 * (fuzz_config.h). Seeds: the .cfg files of configs/. */
#include "tests/fuzz/fuzz_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_path("in.cfg");
    fuzz_write(path, data, size);
    config before, c;
    config_defaults(&before);
    c = before;
    char err[CFG_ERR_MAX] = "";
    int rc = config_load_pnrsim(&c, path, err);
    fuzz_config_after(rc, &before, &c, err);
    return 0;
}
