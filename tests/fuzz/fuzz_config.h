/* tests/fuzz/fuzz_config.h: the properties every configuration reader
 * must keep, shared by the INI, PNRSim-format and --set harnesses.
 *
 * - On error the configuration is unchanged and the message is one line.
 * - A configuration that was read successfully round-trips through the
 *   --print-config writer: print -> read (INI) -> an equal configuration,
 *   and printing that gives the same text again, apart from the
 *   provenance lines ("; from FILE:LINE", issue 25), which name the file
 *   each key was read from and so, after the reread, the printed file.
 */
#ifndef PNRSIM_TESTS_FUZZ_CONFIG_H
#define PNRSIM_TESTS_FUZZ_CONFIG_H

#include "app/config.h"
#include "tests/fuzz/fuzz.h"

/* The text of config_write_ini(c), malloc'd. */
static inline char *fuzz_print(const config *c, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    FUZZ_CHECK(f != NULL, "open_memstream");
    config_write_ini(c, f);
    FUZZ_CHECK(fclose(f) == 0, "close");
    return text;
}

/* Remove the provenance lines ("; from ...\n") of text[0..*len) in
 * place; *len becomes the length of what is left. */
static inline void fuzz_strip_origins(char *text, size_t *len)
{
    size_t r = 0, w = 0;
    while (r < *len) {
        size_t e = r;
        while (e < *len && text[e] != '\n')
            e++;
        if (e < *len)
            e++; /* keep the newline with its line */
        if (!(e - r >= 7 && memcmp(text + r, "; from ", 7) == 0)) {
            memmove(text + w, text + r, e - r);
            w += e - r;
        }
        r = e;
    }
    *len = w;
}

/* After a reader returned rc for before -> *after with message err. */
static inline void fuzz_config_after(int rc, const config *before,
                              const config *after, const char *err)
{
    FUZZ_CHECK(rc == 0 || rc == -1, "return code %d", rc);
    if (rc != 0) {
        fuzz_check_message(err);
        FUZZ_CHECK(config_equal(before, after),
                   "configuration changed by a failed read (%s)", err);
        return;
    }
    size_t len;
    char *text = fuzz_print(after, &len);
    const char *path = fuzz_path("print.ini");
    fuzz_write(path, text, len);
    config again;
    config_defaults(&again);
    char err2[CFG_ERR_MAX] = "";
    int rc2 = config_load_ini(&again, path, err2);
    FUZZ_CHECK(rc2 == 0, "printed configuration does not read back: %s\n%s",
               err2, text);
    FUZZ_CHECK(config_equal(after, &again),
               "printed configuration reads back different:\n%s", text);
    size_t len2;
    char *text2 = fuzz_print(&again, &len2);
    fuzz_strip_origins(text, &len);
    fuzz_strip_origins(text2, &len2);
    FUZZ_CHECK(len == len2 && memcmp(text, text2, len) == 0,
               "printing is not stable:\n%s\n---\n%s", text, text2);
    free(text);
    free(text2);
}

#endif
