/* tests/fuzz/fuzz_swf.c: libFuzzer harness for the SWF reader (plain and
 * gzip). The input is the text of a trace. It is read three ways: plain
 * and strict, plain and lenient, and gzip-compressed (here, with zlib) and
 * strict. Besides the properties of every read (fuzz_swf.h):
 *
 * - gzip is transparent: the compressed copy gives the same result, the
 *   same jobs and the same message (after the file name);
 * - lenient only ever adds: a trace that reads strictly reads the same
 *   under lenient, with nothing malformed; under lenient no line is an
 *   error except an out-of-order submit time or an impossible memory size.
 * Seeds: the first lines of each trace in traces/. */
#include "tests/fuzz/fuzz_swf.h"

#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static fuzz_read strict, lenient, gz;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *plain = fuzz_path("in.swf");
    fuzz_write(plain, data, size);
    const char *zpath = fuzz_path("in.swf.gz");
    gzFile z = gzopen(zpath, "wb");
    FUZZ_CHECK(z != NULL, "gzopen");
    FUZZ_CHECK(size == 0 || gzwrite(z, data, (unsigned)size) == (int)size, "gzwrite");
    FUZZ_CHECK(gzclose(z) == Z_OK, "gzclose");

    fuzz_swf_read(plain, false, &strict);
    fuzz_swf_read(plain, true, &lenient);
    fuzz_swf_read(zpath, false, &gz);

    /* Bytes that start like gzip are decompressed by the plain read too
     * (zlib detects the format), so the compressed copy is another file. */
    bool magic = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    FUZZ_CHECK(magic || (gz.rc == strict.rc && fuzz_same_jobs(&gz, &strict) &&
               strcmp(gz.err, strict.err) == 0),
               "gzip differs: rc %d/%d, jobs %ld/%ld, \"%s\" / \"%s\"", gz.rc,
               strict.rc, gz.jobs, strict.jobs, gz.err, strict.err);
    if (strict.rc == 0) {
        FUZZ_CHECK(lenient.rc == 0 && fuzz_same_jobs(&lenient, &strict) &&
                   lenient.malformed == 0 && strict.malformed == 0,
                   "strict read differs from lenient: %s", lenient.err);
    }
    if (lenient.rc != 0)
        FUZZ_CHECK(strstr(lenient.err, "submit order") ||
                   strstr(lenient.err, "memory per thread") ||
                   strstr(lenient.err, "read error"),
                   "lenient error on a line: %s", lenient.err);
    return 0;
}
