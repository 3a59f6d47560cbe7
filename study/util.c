/* study/util.c: small helpers shared by the pnrsim-sweep modules.
 *
 * Allocation that cannot fail (it exits with a message instead: the sweep
 * holds little memory and has nothing useful to do without it), a growing
 * text buffer, whole-file reads, whole-or-nothing file writes (temporary
 * file + fsync + rename, so a reader never sees half a results.csv), mkdir -p
 * and rm -r for run directories, lexical absolute paths, and quoting for
 * shell commands and CSV fields.
 */
#include "study/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

static void oom(void)
{
    fputs("pnrsim-sweep: out of memory\n", stderr);
    exit(2);
}

void *sweep_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom();
    return p;
}

void *sweep_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom();
    return q;
}

char *sweep_xstrdup(const char *s)
{
    return sweep_xstrndup(s, strlen(s));
}

char *sweep_xstrndup(const char *s, size_t n)
{
    char *p = sweep_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *sweep_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        oom();
    char *p = sweep_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* ---- text buffer ------------------------------------------------------ */

static void buf_reserve(sweep_buf *b, size_t extra)
{
    if (b->n + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + extra + 1)
        cap *= 2;
    b->p = sweep_xrealloc(b->p, cap);
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
        oom();
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

char *sweep_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    sweep_buf b = {0};
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        sweep_buf_add(&b, chunk, got);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        sweep_buf_free(&b);
        errno = EIO;
        return NULL;
    }
    if (!b.p)
        b.p = sweep_xstrdup("");
    if (len)
        *len = b.n;
    return b.p;
}

int sweep_write_buf(const char *dir, const char *name, sweep_buf *b)
{
    char *path = sweep_xasprintf("%s/%s", dir, name);
    char err[512];
    int rc = sweep_write_file(path, b->p, b->n, err, sizeof err);
    if (rc)
        fprintf(stderr, "pnrsim-sweep: %s\n", err);
    free(path);
    sweep_buf_free(b);
    return rc;
}

int sweep_write_file(const char *path, const char *data, size_t len,
                     char *err, size_t errlen)
{
    char *tmp = sweep_xasprintf("%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
            close(fd);
            unlink(tmp);
            free(tmp);
            return -1;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int sweep_mkdirs(const char *path)
{
    char *p = sweep_xstrdup(path);
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/')
        p[--n] = '\0';
    for (char *q = p + 1; *q; q++) {
        if (*q != '/')
            continue;
        *q = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *q = '/';
    }
    int rc = 0;
    if (mkdir(p, 0777) != 0) {
        if (errno != EEXIST || !sweep_is_dir(p)) {
            if (errno == EEXIST)
                errno = ENOTDIR;
            rc = -1;
        }
    }
    free(p);
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
        char *sub = sweep_xasprintf("%s/%s", path, e->d_name);
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
    char **parts = sweep_xmalloc(cap * sizeof *parts);
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
            parts = sweep_xrealloc(parts, cap * sizeof *parts);
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
        return sweep_xstrdup(".");
    if (slash == path)
        return sweep_xstrdup("/");
    return sweep_xstrndup(path, (size_t)(slash - path));
}

/* ---- quoting ---------------------------------------------------------- */

char *sweep_shell_quote(const char *s)
{
    bool safe = *s != '\0';
    for (const char *p = s; *p && safe; p++)
        safe = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                      "0123456789_./,:=+@%-", *p) != NULL;
    if (safe)
        return sweep_xstrdup(s);
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

double sweep_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
