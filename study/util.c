/* study/util.c: small helpers of the pnrsim-sweep modules: a growing text
 * buffer, rm -r for run directories, lexical absolute
 * paths, and quoting for shell commands and CSV fields. What pnrsim needs
 * too (checked allocation, mkdir -p, whole-file reads, whole-or-nothing
 * file writes, the monotonic clock) is core/mem.h's and app/util.h's.
 */
#include "study/util.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

/* ---- text buffer ------------------------------------------------------ */

static void buf_reserve(sweep_buf *b, size_t extra)
{
    if (b->n + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + extra + 1)
        cap *= 2;
    b->p = xrealloc(b->p, cap);
    b->cap = cap;
}

void sweep_buf_add(sweep_buf *b, const char *s, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

void sweep_buf_puts(sweep_buf *b, const char *s)
{
    sweep_buf_add(b, s, strlen(s));
}

void sweep_buf_printf(sweep_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        abort(); /* only an invalid format gets here */
    buf_reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)n;
}

void sweep_buf_free(sweep_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

/* ---- files ------------------------------------------------------------ */

int sweep_write_buf(const char *dir, const char *name, sweep_buf *b)
{
    char *path = xasprintf("%s/%s", dir, name);
    char err[512];
    int rc = util_write_file(path, b->p, b->n, err, sizeof err);
    if (rc)
        fprintf(stderr, "pnrsim-sweep: %s\n", err);
    free(path);
    sweep_buf_free(b);
    return rc;
}

int sweep_rmtree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlink(path);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *sub = xasprintf("%s/%s", path, e->d_name);
        if (sweep_rmtree(sub) != 0)
            rc = -1;
        free(sub);
    }
    closedir(d);
    if (rc == 0 && rmdir(path) != 0)
        rc = -1;
    return rc;
}

bool sweep_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool sweep_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

const char *sweep_file_problem(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno == ENOENT || errno == ENOTDIR ? "no such file"
                                                   : strerror(errno);
    if (S_ISDIR(st.st_mode))
        return "a directory, not a file";
    if (!S_ISREG(st.st_mode))
        return S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
                   ? "a device, not a regular file (every run reads it anew)"
                   : "not a regular file (every run reads it anew)";
    if (access(path, R_OK) != 0)
        return strerror(errno);
    return NULL;
}

/* ---- paths ------------------------------------------------------------ */

char *sweep_abspath(const char *path, const char *dir)
{
    sweep_buf b = {0};
    if (path[0] != '/') {
        if (dir) {
            sweep_buf_puts(&b, dir);
        } else {
            char cwd[PATH_MAX];
            sweep_buf_puts(&b, getcwd(cwd, sizeof cwd) ? cwd : ".");
        }
        sweep_buf_puts(&b, "/");
    }
    sweep_buf_puts(&b, path);
    /* Resolve lexically: split on '/', drop "" and ".", pop on "..". */
    char *in = b.p;
    size_t nparts = 0, cap = 16;
    char **parts = xmalloc(cap * sizeof *parts);
    for (char *tok = strtok(in, "/"); tok; tok = strtok(NULL, "/")) {
        if (!strcmp(tok, "."))
            continue;
        if (!strcmp(tok, "..")) {
            if (nparts)
                nparts--;
            continue;
        }
        if (nparts == cap) {
            cap *= 2;
            parts = xrealloc(parts, cap * sizeof *parts);
        }
        parts[nparts++] = tok;
    }
    sweep_buf out = {0};
    for (size_t i = 0; i < nparts; i++) {
        sweep_buf_puts(&out, "/");
        sweep_buf_puts(&out, parts[i]);
    }
    if (!nparts)
        sweep_buf_puts(&out, "/");
    free(parts);
    sweep_buf_free(&b);
    return out.p;
}

char *sweep_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

/* ---- quoting ---------------------------------------------------------- */

char *sweep_shell_quote(const char *s)
{
    bool safe = *s != '\0';
    for (const char *p = s; *p && safe; p++)
        safe = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                      "0123456789_./,:=+@%-", *p) != NULL;
    if (safe)
        return xstrdup(s);
    sweep_buf b = {0};
    sweep_buf_puts(&b, "'");
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            sweep_buf_puts(&b, "'\\''");
        else
            sweep_buf_add(&b, p, 1);
    }
    sweep_buf_puts(&b, "'");
    return b.p;
}

void sweep_csv_field(sweep_buf *b, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        sweep_buf_puts(b, s);
        return;
    }
    sweep_buf_puts(b, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            sweep_buf_puts(b, "\"\"");
        else
            sweep_buf_add(b, p, 1);
    }
    sweep_buf_puts(b, "\"");
}

