/* app/config_ini.c: INI configuration files, read through inih.
 *
 * INI files go through inih (Debian's libinih, r55). Its behaviour is set by
 * process-wide globals, which cfg_parse_ini_text sets for the duration of
 * the call and then restores: no multi-line values (an indented key is an
 * ordinary key, not a continuation of the previous value), `;` and `#`
 * inline comments (after whitespace: "quantum = 60s  # a minute", as in
 * study files; a '#' inside a word, "run#3.swf", is kept) and `;`/`#`
 * full-line comments, stop at the first error. The installed <ini.h> declares the four-argument handler
 * (INI_HANDLER_LINENO is 0), so line numbers come from our own reader for
 * ini_parse_stream: it hands inih exactly one file line per call, counts
 * them, refuses lines longer than inih's buffer (inih would otherwise cut
 * such a line silently and parse its tail as a new line), and checks
 * [section] headers itself, so an unknown section is reported even when it
 * holds no key (inih calls the handler only for key = value lines).
 *
 * In the configuration module's layers (app/config.h) this file is above
 * the values (app/config_value.c: cfg_apply) and below app/config.c, which
 * calls it once it has told an INI file from a PNRSim one.
 *
 * Not thread-safe (inih's settings are globals).
 */
#include "app/config_ini.h"
#include "app/config_value.h"
#include "app/util.h"

#include <ini.h>

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Longest line accepted in an INI file: room for a full trace path
 * ("trace = " and CFG_PATH_MAX - 1 characters). A longer comment line
 * (config.ini's "; command:" or "; trace:" line) is accepted whatever its
 * length: it reaches inih as an empty comment. */
#define INI_LINE_MAX (CFG_PATH_MAX + 256)

typedef struct ini_state {
    config *c;               /* the scratch copy being filled */
    const char *pos, *end;   /* the rest of the file's text, in memory */
    where w;                 /* file and current line */
    long set_on[CFG_MAX_KEYS];     /* line where each key was set, 0 = not yet */
    bool failed;
    cfg_error *err;
} ini_state;

/* Check a [section] header line: well-formed and naming a known section.
 * Returns 0, or -1 with err filled. Other lines pass. */
static int check_header(ini_state *st, const char *line)
{
    const char *p = line;
    if (st->w.line == 1 && !strncmp(p, "\xEF\xBB\xBF", 3))
        p += 3;
    while (isspace((unsigned char)*p))
        p++;
    if (*p != '[')
        return 0;
    const char *end = strchr(p, ']');
    char name[128];
    if (!end) {
        cfg_fail(st->err, &st->w, "malformed section header: expected [SECTION]");
        return -1;
    }
    const char *rest = end + 1;
    while (isspace((unsigned char)*rest))
        rest++;
    if (*rest && *rest != ';' && *rest != '#') {
        cfg_fail(st->err, &st->w, "malformed section header: text after ']'");
        return -1;
    }
    if (!util_trim_copy(name, sizeof name, p + 1, (size_t)(end - p - 1)) ||
        !cfg_find_section(name)) {
        char shown[128];
        if (!util_trim_copy(shown, sizeof shown, p + 1, (size_t)(end - p - 1)))
            snprintf(shown, sizeof shown, "%.*s", 100, p + 1);
        cfg_fail_unknown_section(st->err, &st->w, shown);
        return -1;
    }
    return 0;
}

/* Whether the n bytes at line are a full-line comment (';' or '#' after
 * blanks). */
static bool is_comment(const char *line, size_t n)
{
    size_t i = 0;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return i < n && (line[i] == ';' || line[i] == '#');
}

/* inih reader: hand over exactly one file line per call from the text in
 * memory, counting lines. Refuses (stopping the parse) lines that do not fit
 * inih's buffer of num bytes (a comment that does not is
 * handed over as ";"), lines with NUL bytes and bad section headers. */
static char *cfg_ini_reader(char *str, int num, void *stream)
{
    ini_state *st = stream;
    if (st->failed || st->pos >= st->end)
        return NULL;
    const char *nl = memchr(st->pos, '\n', (size_t)(st->end - st->pos));
    size_t n = nl ? (size_t)(nl - st->pos) + 1 : (size_t)(st->end - st->pos);
    const char *line = st->pos;
    st->pos += n;
    st->w.line++;
    if (memchr(line, '\0', n)) {
        cfg_fail(st->err, &st->w, "NUL byte in line");
        st->failed = true;
        return NULL;
    }
    if (n + 1 > (size_t)num && is_comment(line, n)) {
        memcpy(str, ";\n", 3);
        return str;
    }
    if (n + 1 > (size_t)num) {
        cfg_fail(st->err, &st->w, "line too long: at most %d characters", num - 2);
        st->failed = true;
        return NULL;
    }
    memcpy(str, line, n);
    str[n] = '\0';
    if (check_header(st, str)) {
        st->failed = true;
        return NULL;
    }
    return str;
}

/* inih handler: one key = value of the current section. */
static int cfg_ini_handler(void *user, const char *section, const char *name,
                       const char *value)
{
    ini_state *st = user;
    char sec[128], key[128];
    if (st->failed)
        return 0;
    st->failed = true; /* until accepted */
    if (!util_trim_copy(key, sizeof key, name, strlen(name)))
        snprintf(key, sizeof key, "%.100s", name);
    if (!util_trim_copy(sec, sizeof sec, section, strlen(section)))
        snprintf(sec, sizeof sec, "%.100s", section);
    if (!sec[0]) {
        char q[96];
        cfg_quote_value(q, sizeof q, key);
        cfg_fail(st->err, &st->w, "key \"%s\" before any [section] header", q);
        return 0;
    }
    const char *canon = cfg_find_section(sec);
    if (!canon) {
        cfg_fail_unknown_section(st->err, &st->w, sec);
        return 0;
    }
    if (!strcmp(canon, CFG_PLUGINS_SECTION)) {
        /* Loaded before the file was read (app/plugin.c). */
        if (strcasecmp(key, "load")) {
            char q[96];
            cfg_quote_value(q, sizeof q, key);
            cfg_fail(st->err, &st->w, "unknown key \"%s\" in [%s]; known keys: load", q,
                     CFG_PLUGINS_SECTION);
            return 0;
        }
        st->failed = false;
        return 1;
    }
    const key_def *kd = cfg_find_key(canon, key);
    if (!kd) {
        cfg_fail_unknown_key(st->err, &st->w, canon, key);
        return 0;
    }
    if (!value) {
        cfg_fail_value(st->err, &st->w, kd, "", "missing '=' and value");
        return 0;
    }
    size_t i = (size_t)(kd - cfg_keys);
    if (st->set_on[i]) {
        cfg_fail(st->err, &st->w, "[%s] %s set twice (first on line %ld)", kd->section,
             kd->key, st->set_on[i]);
        return 0;
    }
    if (cfg_apply(st->c, kd, value, &st->w, st->err))
        return 0;
    st->set_on[i] = st->w.line;
    st->failed = false;
    return 1;
}

/* inih's settings, saved around a parse. */
typedef struct ini_settings {
    int max_line;
    bool use_stack, multiline, inline_comments, stop_on_first_error, no_value,
        bom, realloc_;
    char *inline_prefixes, *start_prefixes;
} ini_settings;

/* Save inih's current settings. */
static ini_settings ini_settings_get(void)
{
    ini_settings s = {ini_max_line, ini_use_stack, ini_allow_multiline,
                      ini_allow_inline_comments, ini_stop_on_first_error,
                      ini_allow_no_value, ini_allow_bom, ini_allow_realloc,
                      ini_inline_comment_prefixes, ini_start_comment_prefixes};
    return s;
}

/* Install a set of inih settings. */
static void ini_settings_set(const ini_settings *s)
{
    ini_max_line = s->max_line;
    ini_use_stack = s->use_stack;
    ini_allow_multiline = s->multiline;
    ini_allow_inline_comments = s->inline_comments;
    ini_stop_on_first_error = s->stop_on_first_error;
    ini_allow_no_value = s->no_value;
    ini_allow_bom = s->bom;
    ini_allow_realloc = s->realloc_;
    ini_inline_comment_prefixes = s->inline_prefixes;
    ini_start_comment_prefixes = s->start_prefixes;
}

/* Parse INI text (len bytes, NUL-terminated) read from path onto *c; on
 * error *c is unchanged. 0 or -1 + e. */
int cfg_parse_ini_text(config *c, const char *path, const char *text, size_t len,
                       cfg_error *err)
{
    static char inline_prefixes[] = ";#";
    static char start_prefixes[] = ";#";
    config scratch = *c;
    ini_state st = {.c = &scratch, .pos = text, .end = text + len, .w = {.file = path},
                    .err = err};
    ini_settings saved = ini_settings_get();
    ini_settings mine = {INI_LINE_MAX, true,  false, true, true, false, true,
                         false,        inline_prefixes, start_prefixes};
    ini_settings_set(&mine);
    int r = ini_parse_stream(cfg_ini_reader, &st, cfg_ini_handler, &st);
    ini_settings_set(&saved);
    if (st.failed)
        return -1;
    if (r != 0) {
        where w = {.file = path, .line = r > 0 ? r : st.w.line};
        cfg_fail(err, &w, "malformed line: expected [SECTION], KEY = VALUE or a comment");
        return -1;
    }
    *c = scratch;
    return 0;
}
