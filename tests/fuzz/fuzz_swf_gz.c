/* tests/fuzz/fuzz_swf_gz.c: libFuzzer harness for the SWF reader on
 * compressed input. The input is the bytes of a .swf.gz file as found on
 * disk: damaged, truncated, concatenated or not gzip at all (zlib reads
 * those as plain text). The properties of every read hold (fuzz_swf.h);
 * strict and lenient agree as in fuzz_swf.c. Seeds: the first lines of
 * each trace in traces/, gzip-compressed. */
#include "tests/fuzz/fuzz_swf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static fuzz_read strict, lenient;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_path("in.swf.gz");
    fuzz_write(path, data, size);
    fuzz_swf_read(path, false, &strict);
    fuzz_swf_read(path, true, &lenient);
    if (strict.rc == 0)
        FUZZ_CHECK(lenient.rc == 0 && fuzz_same_jobs(&lenient, &strict) &&
                   lenient.malformed == 0,
                   "strict read differs from lenient: %s", lenient.err);
    return 0;
}
