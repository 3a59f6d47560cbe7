/* tests/fuzz/fuzz.h: helpers shared by the libFuzzer harnesses.
 *
 * The readers under test take file names, so each harness writes the input
 * to a file of its own (one per process, removed at exit, in memory under
 * /dev/shm when there is one) and reads that.
 * FUZZ_CHECK is the property check: unlike assert() it stays on with
 * NDEBUG and aborts with the failed condition, which libFuzzer reports as a
 * crash and saves the input for.
 */
#ifndef PNRSIM_TESTS_FUZZ_H
#define PNRSIM_TESTS_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_CHECK(cond, ...)                                               \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "%s:%d: property failed: %s: ", __FILE__,       \
                    __LINE__, #cond);                                       \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
            abort();                                                        \
        }                                                                   \
    } while (0)

#define FUZZ_MAX_FILES 4
static char fuzz_paths[FUZZ_MAX_FILES][512];
static int fuzz_n_paths;

static inline void fuzz_cleanup(void)
{
    for (int i = 0; i < fuzz_n_paths; i++)
        unlink(fuzz_paths[i]);
}

/* The directory for scratch files: $FUZZ_TMPDIR, else /dev/shm (memory:
 * rewriting a file on a disk file system can wait for the disk at every
 * input), else /tmp. */
static inline const char *fuzz_tmpdir(void)
{
    const char *d = getenv("FUZZ_TMPDIR");
    if (d && *d)
        return d;
    return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

/* A per-process path DIR/pnrsim-fuzz-PID-TAG (removed at exit). */
static inline const char *fuzz_path(const char *tag)
{
    for (int i = 0; i < fuzz_n_paths; i++)
        if (strstr(fuzz_paths[i], tag))
            return fuzz_paths[i];
    if (fuzz_n_paths == 0)
        atexit(fuzz_cleanup);
    FUZZ_CHECK(fuzz_n_paths < FUZZ_MAX_FILES, "too many files");
    snprintf(fuzz_paths[fuzz_n_paths], sizeof fuzz_paths[0],
             "%s/pnrsim-fuzz-%ld-%s", fuzz_tmpdir(), (long)getpid(), tag);
    return fuzz_paths[fuzz_n_paths++];
}

/* Write the n bytes at data to path (replacing it). */
static inline void fuzz_write(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "%s", path);
    FUZZ_CHECK(n == 0 || fwrite(data, 1, n, f) == n, "%s", path);
    FUZZ_CHECK(fclose(f) == 0, "%s", path);
}

/* An error message must be one non-empty line. */
static inline void fuzz_check_message(const char *err)
{
    FUZZ_CHECK(err[0] != '\0', "empty error message");
    FUZZ_CHECK(strchr(err, '\n') == NULL, "message with a newline: %s", err);
}

#endif
