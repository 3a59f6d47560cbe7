/* app/util.c: mkdir -p, whole-file reads and atomic writes, a monotonic
 * clock and two string helpers (see util.h). The lowest file of app/: it uses only
 * core/mem.h. */
#include "app/util.h"
#include "core/mem.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int util_mkdirs(const char *dir, size_t *created)
{
    size_t len = strlen(dir), first = len + 1;
    if (created)
        *created = first;
    if (!dir[0]) {
        errno = ENOENT;
        return -1;
    }
    char *buf = xstrdup(dir);
    int rc = 0;
    for (char *p = buf + 1;; p++) {
        if (*p && *p != '/')
            continue;
        if (p[-1] != '/') { /* a component ends here ("a//b", "a/" end one only once) */
            char save = *p;
            *p = 0;
            if (mkdir(buf, 0777) == 0) {
                if (first > len)
                    first = (size_t)(p - buf);
            } else if (errno != EEXIST) {
                rc = -1;
                break;
            }
            *p = save;
        }
        if (!*p)
            break;
    }
    if (created)
        *created = first;
    struct stat st;
    if (rc == 0 && stat(buf, &st) != 0)
        rc = -1;
    else if (rc == 0 && !S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        rc = -1;
    }
    int saved = errno;
    free(buf);
    errno = saved;
    return rc;
}

/* util_read_file's failure: close f (unless it is stdin), free buf, set
 * *why and errno (err). Returns NULL. */
static char *read_failed(FILE *f, char *buf, util_read_fail *why, util_read_fail w, int err)
{
    if (f && f != stdin)
        fclose(f);
    free(buf);
    if (why)
        *why = w;
    errno = err;
    return NULL;
}

char *util_read_file(const char *path, size_t max, size_t *len, util_read_fail *why)
{
    FILE *f = path ? fopen(path, "rb") : stdin;
    if (!f)
        return read_failed(NULL, NULL, why, UTIL_READ_OPEN, errno);
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
        return read_failed(f, NULL, why, UTIL_READ_DIR, EISDIR);
    size_t cap = 4096, n = 0;
    char *buf = xrealloc(NULL, cap);
    errno = 0;
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (max > 0 && n > max)
            return read_failed(f, buf, why, UTIL_READ_BIG, EFBIG);
        if (got == 0 || feof(f) || ferror(f))
            break;
    }
    if (ferror(f))
        return read_failed(f, buf, why, UTIL_READ_IO, errno ? errno : EIO);
    if (f != stdin)
        fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* Write all len bytes of data to fd; 0, or -1 with errno set. */
static int write_all(int fd, const char *p, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, p + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        off += (size_t)w;
    }
    return 0;
}

int util_write_file(const char *path, const void *data, size_t len, char *err,
                    size_t errlen)
{
    /* A symlink is followed, as a shell's > would (/dev/stdout ->
     * /proc/self/fd/1 -> the file standard output was sent to): the
     * temporary goes beside its target and is renamed over the target,
     * never over the link (as root that would replace /dev/stdout). A
     * dangling link is replaced. */
    struct stat st;
    char *real = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        real = realpath(path, NULL);
    const char *target = real ? real : path;
    /* A path that names something other than a regular file (/dev/null,
     * /dev/stdout, a FIFO) is written in place: renaming a file over it
     * would replace the device (as root, /dev/null itself). */
    if (stat(target, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        free(real);
        int fd = open(path, O_WRONLY);
        if (fd < 0 || write_all(fd, data, len) != 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        if (close(fd) != 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            return -1;
        }
        return 0;
    }
    char *tmp = xasprintf("%s.tmp.%ld", target, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        free(tmp);
        free(real);
        return -1;
    }
    if (write_all(fd, data, len) != 0) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        free(real);
        return -1;
    }
    if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        free(real);
        return -1;
    }
    if (close(fd) != 0 || rename(tmp, target) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        free(real);
        return -1;
    }
    free(tmp);
    free(real);
    return 0;
}

double util_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void util_fmt_g(char *buf, size_t n, double v)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* s with leading and trailing whitespace removed, written into out (size n);
 * returns false when it does not fit. */
void util_path_shown(char *out, size_t n, const char *path)
{
    size_t len = strlen(path);
    if (len < n || n < 8) {
        snprintf(out, n, "%s", path);
        return;
    }
    size_t head = (n - 4) / 2, tail = n - 4 - head;
    memcpy(out, path, head);
    memcpy(out + head, "...", 3);
    memcpy(out + head + 3, path + len - tail, tail + 1);
}

bool util_trim_copy(char *out, size_t n, const char *s, size_t len)
{
    while (len > 0 && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len >= n)
        return false;
    memcpy(out, s, len);
    out[len] = '\0';
    return true;
}

/* Append formatted text to buf (size n, already holding a string),
 * truncating silently. */
void util_appendf(char *buf, size_t n, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
}

char *util_shell_join(int argc, char *const argv[])
{
    size_t cap = 1;
    for (int i = 0; i < argc; i++)
        cap += 4 * strlen(argv[i]) + 3; /* each ' as '\'' (4), quotes, space */
    char *out = xrealloc(NULL, cap), *p = out;
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i];
        bool plain = w[0] != '\0';
        for (const char *c = w; *c && plain; c++)
            plain = isalnum((unsigned char)*c) || strchr("_@%+=:,./-", *c);
        if (i)
            *p++ = ' ';
        if (plain) {
            size_t n = strlen(w);
            memcpy(p, w, n);
            p += n;
            continue;
        }
        *p++ = '\'';
        for (const char *c = w; *c; c++) {
            if (*c == '\'') {
                memcpy(p, "'\\''", 4);
                p += 4;
            } else {
                *p++ = *c;
            }
        }
        *p++ = '\'';
    }
    *p = '\0';
    return out;
}

void util_hms(char *buf, size_t n, double s)
{
    if (!(s >= 0))
        s = 0;
    if (s > 1e9)
        s = 1e9;
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}
