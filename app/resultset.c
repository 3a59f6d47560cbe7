/* app/resultset.c: the result files of a run, committed all or nothing
 * (see resultset.h). A gzipped file (rset_open_gz) is a stdio stream
 * (glibc's fopencookie) over a zlib gzFile, so that writers keep to FILE*. */
#define _GNU_SOURCE /* fopencookie */
#include "app/resultset.h"
#include "app/util.h"

#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

void rset_rmdirs(const char *dir, size_t created)
{
    char buf[CFG_PATH_MAX + 64];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return;
    size_t len = strlen(buf);
    for (;;) {
        while (len > 1 && buf[len - 1] == '/')
            buf[--len] = 0;
        if (len < created || len == 0)
            return;
        /* A deeper part never made (mkdir failed there, e.g. a name too
         * long) is passed over to remove the parents that were made. */
        if (rmdir(buf) != 0 && errno != ENOENT && errno != ENAMETOOLONG)
            return;
        while (len > 0 && buf[len - 1] != '/')
            len--;
        buf[len] = 0;
    }
}

/* ---------------------------------------------------------------------- */
/* The result set: staging directory, lock, commit, debris of dead runs     */
/* ---------------------------------------------------------------------- */

/* The files a run may write, in commit order: metrics.json, the mark that
 * the set is complete, goes last (and is removed first). The schedule
 * files are written with --schedule (plain or .gz), the Paje trace with
 * --paje (schedule.paje[.gz], or a name of the user's, which is part of
 * the set of the run that writes it only: rset_commit). */
static const char *const SET_NAMES[] = {
    "config.ini",    "jobs.csv",         "samples.csv",   "metrics.dat",
    "schedule.csv",  "schedule.csv.gz",  "pes.csv",       "pes.csv.gz",
    "memory.csv",    "memory.csv.gz",    "paging.csv",    "paging.csv.gz",
    "schedule.paje", "schedule.paje.gz", "metrics.json"};
#define SET_N ((int)(sizeof SET_NAMES / sizeof SET_NAMES[0]))

/* "dir/name" into buf of n bytes; false (errno ENAMETOOLONG) when too long. */
static bool join(char *buf, size_t n, const char *dir, const char *name)
{
    if (snprintf(buf, n, "%s/%s", dir, name) >= (int)n) {
        errno = ENAMETOOLONG;
        return false;
    }
    return true;
}

/* This machine's name as it goes into staging names: letters, digits, '-'
 * and '.' only (anything else becomes '_'), at most 63 characters. */
static void host_name(char out[64])
{
    if (gethostname(out, 64) != 0)
        snprintf(out, 64, "localhost");
    out[63] = '\0';
    if (!out[0])
        snprintf(out, 64, "localhost");
    for (char *p = out; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.')
            *p = '_';
}

/* Parse a staging name ".pnrsim-PID@HOST.tmp" or "...commit": 1 when name
 * is one (pid, host and whether it is a commit filled in), else 0. */
static int parse_stage_name(const char *name, long *pid, char host[64], bool *commit)
{
    if (strncmp(name, ".pnrsim-", 8) != 0)
        return 0;
    const char *p = name + 8;
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (end == p || *end != '@' || errno || v <= 0)
        return 0;
    const char *h = end + 1, *dot = strrchr(h, '.');
    if (!dot || dot == h || dot - h > 63)
        return 0;
    if (strcmp(dot, ".tmp") == 0)
        *commit = false;
    else if (strcmp(dot, ".commit") == 0)
        *commit = true;
    else
        return 0;
    memcpy(host, h, (size_t)(dot - h));
    host[dot - h] = '\0';
    *pid = v;
    return 1;
}

/* True when process pid on this machine is provably gone. */
static bool pid_dead(long pid)
{
    return pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Remove directory d and the plain files in it (a staging directory holds
 * nothing else). 0 or -1 + errno. */
static int remove_flat_dir(const char *d)
{
    DIR *dp = opendir(d);
    if (!dp)
        return errno == ENOENT ? 0 : -1;
    struct dirent *e;
    char path[RSET_PATH_MAX];
    while ((e = readdir(dp)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (join(path, sizeof path, d, e->d_name))
            unlink(path);
    }
    closedir(dp);
    return rmdir(d);
}

/* Move what is left in commit directory cd (a complete result set whose
 * commit was cut short) into dir, metrics.json last, then remove cd.
 * 0 or -1 + errno. */
static int roll_forward(const char *cd, const char *dir)
{
    char from[RSET_PATH_MAX], to[RSET_PATH_MAX];
    /* Every file in it (a Paje trace's own name too), metrics.json last. */
    for (int pass = 0; pass < 2; pass++) {
        DIR *dp = opendir(cd);
        if (!dp)
            return -1;
        struct dirent *e;
        while ((e = readdir(dp)) != NULL) {
            if (e->d_name[0] == '.' && (!e->d_name[1] || !strcmp(e->d_name, "..")))
                continue;
            if ((pass == 0) == !strcmp(e->d_name, "metrics.json"))
                continue;
            if (!join(from, sizeof from, cd, e->d_name) || !join(to, sizeof to, dir, e->d_name) ||
                (rename(from, to) != 0 && errno != ENOENT)) {
                closedir(dp);
                return -1;
            }
        }
        closedir(dp);
    }
    return remove_flat_dir(cd);
}

/* With the lock held: clear what dead runs left in s->dir (see resultset.h),
 * with a line on stderr for what is done or left alone. */
static void clean_stale(const rset_t *s)
{
    DIR *dp = opendir(s->dir);
    if (!dp)
        return;
    char me[64], host[64], path[RSET_PATH_MAX];
    host_name(me);
    long legacy = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        long pid;
        bool commit;
        if (parse_stage_name(e->d_name, &pid, host, &commit)) {
            if (strcmp(host, me) != 0 || !pid_dead(pid))
                continue; /* another machine's, or alive: cannot prove it dead */
            if (!join(path, sizeof path, s->dir, e->d_name))
                continue;
            if (commit) {
                if (roll_forward(path, s->dir) == 0)
                    fprintf(stderr, "pnrsim: %s: completed the commit of the results of "
                                    "pnrsim pid %ld, killed while committing them\n",
                            s->dir, pid);
                else
                    fprintf(stderr, "pnrsim: %s: cannot complete the commit left by "
                                    "pnrsim pid %ld: %s\n", path, pid, strerror(errno));
            } else if (remove_flat_dir(path) != 0) {
                fprintf(stderr, "pnrsim: %s: cannot remove the files of dead run %ld: %s\n",
                        path, pid, strerror(errno));
            }
            continue;
        }
        /* ".jobs.csv.XXXXXX.tmp" etc.: temporary files of pnrsim before
         * 0.2, without a pid in the name: they cannot be proved dead. */
        for (int i = 0; i < SET_N; i++) {
            size_t n = strlen(SET_NAMES[i]), len = strlen(e->d_name);
            if (e->d_name[0] == '.' && len == n + 12 &&
                !strncmp(e->d_name + 1, SET_NAMES[i], n) && e->d_name[n + 1] == '.' &&
                !strcmp(e->d_name + len - 4, ".tmp"))
                legacy++;
        }
    }
    closedir(dp);
    if (legacy)
        fprintf(stderr, "pnrsim: %s: %ld hidden .*.tmp file%s of an older pnrsim left alone "
                        "(no process id in the name); remove them when no run writes here\n",
                s->dir, legacy, legacy > 1 ? "s" : "");
}

/* Take the lock file of s->dir: 0, 1 when another process holds it (its
 * "pid@host" in holder), -1 + errno on failure. The file is re-checked
 * after locking, because a finishing run unlinks it. */
static int take_lock(rset_t *s, char *holder, size_t n)
{
    for (int tries = 0; tries < 100; tries++) {
        int fd = open(s->lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
            return -1;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            if (e == EWOULDBLOCK) {
                /* The holder writes "pid@host" just after taking the lock:
                 * an empty file is read again for up to about 50 ms. */
                for (int k = 0; k < 50; k++) {
                    ssize_t got = pread(fd, holder, n - 1, 0);
                    holder[got > 0 ? got : 0] = '\0';
                    holder[strcspn(holder, "\n")] = '\0';
                    if (holder[0])
                        break;
                    struct timespec ms = {0, 1000000};
                    nanosleep(&ms, NULL);
                }
            }
            close(fd);
            errno = e;
            return e == EWOULDBLOCK ? 1 : -1;
        }
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(s->lock, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            char me[64], line[96];
            host_name(me);
            int len = snprintf(line, sizeof line, "%ld@%s\n", (long)getpid(), me);
            if (ftruncate(fd, 0) != 0 || pwrite(fd, line, (size_t)len, 0) != len) {
                /* the pid in the lock file only improves a message */
            }
            s->lockfd = fd;
            return 0;
        }
        close(fd); /* unlinked by its last holder meanwhile: take the new one */
    }
    errno = EAGAIN;
    return -1;
}

/* A name of the set that exists in dir as something rename cannot replace
 * (a directory): its name, else NULL. */
static const char *blocked_name(const char *dir)
{
    char path[RSET_PATH_MAX];
    struct stat st;
    for (int i = 0; i < SET_N; i++)
        if (join(path, sizeof path, dir, SET_NAMES[i]) && lstat(path, &st) == 0 &&
            S_ISDIR(st.st_mode))
            return SET_NAMES[i];
    return NULL;
}

int rset_begin(rset_t *s, const char *dir, char *err, size_t n)
{
    memset(s, 0, sizeof *s);
    s->lockfd = -1;
    util_path_shown(s->shown, sizeof s->shown, dir);
    if (snprintf(s->dir, sizeof s->dir, "%s", dir) >= (int)sizeof s->dir) {
        snprintf(err, n, "\"%.100s...\": output directory name too long", dir);
        return -1;
    }
    if (util_mkdirs(dir, &s->created) != 0) {
        snprintf(err, n, "\"%s\": cannot create output directory: %s", s->shown, strerror(errno));
        rset_rmdirs(dir, s->created);
        return -1;
    }
    char me[64], holder[96], stage_name[128];
    host_name(me);
    snprintf(stage_name, sizeof stage_name, ".pnrsim-%ld@%s.tmp", (long)getpid(), me);
    if (!join(s->lock, sizeof s->lock, dir, ".pnrsim.lock") ||
        !join(s->stage, sizeof s->stage, dir, stage_name)) {
        snprintf(err, n, "\"%s\": output directory name too long", s->shown);
        rset_rmdirs(dir, s->created);
        return -1;
    }
    int rc = take_lock(s, holder, sizeof holder);
    if (rc != 0) {
        if (rc == 1 && holder[0])
            snprintf(err, n, "%s: another pnrsim (%s) is writing its results into this "
                             "directory; give each run its own -o directory", s->shown, holder);
        else if (rc == 1)
            snprintf(err, n, "%s: another process holds the lock %s/.pnrsim.lock (it has not "
                             "written its pid@host there) and may be writing results into "
                             "this directory; give each run its own -o directory", s->shown,
                     s->shown);
        else
            snprintf(err, n, "%s: cannot write: %s", s->shown, strerror(errno));
        rset_rmdirs(dir, s->created);
        return -1;
    }
    clean_stale(s);
    const char *b = blocked_name(dir);
    if (b) {
        snprintf(err, n, "%s/%s: is a directory: cannot write the results there", s->shown, b);
        rset_abort(s);
        return -1;
    }
    if (mkdir(s->stage, 0777) != 0) {
        snprintf(err, n, "%s: cannot write: %s", s->shown, strerror(errno));
        rset_abort(s);
        return -1;
    }
    return 0;
}

/* Name o (its final path and its staging path) and create its staging
 * file: the descriptor, or -1 with errno set. */
static int stage_create(rset_t *s, rset_file *o, const char *name)
{
    memset(o, 0, sizeof *o);
    if (!join(o->path, sizeof o->path, s->dir, name) ||
        !join(o->tmp, sizeof o->tmp, s->stage, name))
        return -1;
    return open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
}

int rset_open(rset_t *s, rset_file *o, const char *name)
{
    int fd = stage_create(s, o, name);
    if (fd < 0)
        return -1;
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        errno = e;
        return -1;
    }
    return 0;
}

/* fopencookie's functions over a gzFile. */
static ssize_t gz_cookie_write(void *c, const char *buf, size_t n)
{
    size_t done = 0;
    while (done < n) {
        unsigned part = n - done > (1u << 30) ? (1u << 30) : (unsigned)(n - done);
        int w = gzwrite((gzFile)c, buf + done, part);
        if (w <= 0) {
            errno = EIO;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int gz_cookie_close(void *c)
{
    if (gzclose((gzFile)c) != Z_OK) {
        errno = EIO;
        return -1;
    }
    return 0;
}

int rset_open_gz(rset_t *s, rset_file *o, const char *name)
{
    int fd = stage_create(s, o, name);
    if (fd < 0)
        return -1;
    gzFile gz = gzdopen(fd, "wb6");
    if (!gz) {
        close(fd);
        unlink(o->tmp);
        errno = ENOMEM;
        return -1;
    }
    gzbuffer(gz, 1u << 17);
    o->f = fopencookie(gz, "w", (cookie_io_functions_t){.write = gz_cookie_write,
                                                        .close = gz_cookie_close});
    if (!o->f) {
        int e = errno;
        gzclose(gz);
        unlink(o->tmp);
        errno = e;
        return -1;
    }
    setvbuf(o->f, NULL, _IOFBF, 1u << 16);
    return 0;
}

int rset_close(rset_file *o)
{
    if (!o->f)
        return 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int e = errno;
    if (fclose(o->f) != 0) {
        bad = 1;
        e = errno;
    }
    o->f = NULL;
    o->closed = true;
    if (bad) {
        errno = e ? e : EIO;
        return -1;
    }
    return 0;
}

/* Release and remove the lock file (still holding it while unlinking, so a
 * waiting process re-checks and takes a fresh one). */
static void release_lock(rset_t *s)
{
    if (s->lockfd < 0)
        return;
    unlink(s->lock);
    close(s->lockfd);
    s->lockfd = -1;
}

/* The file name of o in the directory (NAME of DIR/NAME). */
static const char *file_name(const rset_file *o)
{
    const char *slash = strrchr(o->path, '/');
    return slash ? slash + 1 : o->path;
}

/* True when name is one of SET_NAMES. */
static bool in_set(const char *name)
{
    for (int i = 0; i < SET_N; i++)
        if (!strcmp(name, SET_NAMES[i]))
            return true;
    return false;
}

int rset_commit(rset_t *s, rset_file **files, int n, char *err, size_t errn)
{
    assert(s->lockfd >= 0);
    for (int i = 0; i < n; i++)
        if (rset_close(files[i]) != 0) {
            snprintf(err, errn, "%s: writing results failed: %s", s->shown, strerror(errno));
            rset_abort(s);
            return -1;
        }
    const char *b = blocked_name(s->dir);
    char path[RSET_PATH_MAX];
    struct stat bst;
    for (int i = 0; i < n && !b; i++) /* a Paje trace's own name */
        if (files[i]->closed && !in_set(file_name(files[i])) &&
            join(path, sizeof path, s->dir, file_name(files[i])) && lstat(path, &bst) == 0 &&
            S_ISDIR(bst.st_mode))
            b = file_name(files[i]);
    if (b) {
        snprintf(err, errn, "%s/%s: is a directory: cannot write the results there; "
                            "nothing replaced", s->shown, b);
        rset_abort(s);
        return -1;
    }
    /* The complete set takes the .commit name in one rename: from here a
     * run that finds it with its writer dead moves the rest into place. */
    char commit[RSET_PATH_MAX], from[RSET_PATH_MAX], to[RSET_PATH_MAX];
    size_t sl = strlen(s->stage);
    if (snprintf(commit, sizeof commit, "%.*s.commit", (int)(sl - 4), s->stage) >=
            (int)sizeof commit ||
        rename(s->stage, commit) != 0) {
        snprintf(err, errn, "%s: writing results failed: %s", s->shown, strerror(errno));
        rset_abort(s);
        return -1;
    }
    /* metrics.json out first, in last: while it is absent the set in the
     * directory is visibly incomplete. */
    if (join(to, sizeof to, s->dir, "metrics.json") && unlink(to) != 0 && errno != ENOENT) {
        snprintf(err, errn, "%s: cannot replace metrics.json: %s; nothing replaced", s->shown,
                 strerror(errno));
        if (rename(commit, s->stage) == 0)
            rset_abort(s);
        return -1;
    }
    /* A name of the set this run did not write (schedule.csv without
     * --schedule) must not stay behind from an earlier run. */
    struct stat st;
    for (int i = 0; i < SET_N; i++)
        if (join(from, sizeof from, commit, SET_NAMES[i]) && lstat(from, &st) != 0 &&
            errno == ENOENT && join(to, sizeof to, s->dir, SET_NAMES[i]))
            unlink(to);
    /* The names of the set, with this run's own names (a Paje trace's)
     * before metrics.json. */
    for (int i = 0; i < SET_N + n; i++) {
        const char *name = i < SET_N - 1 ? SET_NAMES[i]
                           : i < SET_N - 1 + n ? file_name(files[i - (SET_N - 1)])
                                               : SET_NAMES[SET_N - 1];
        if (i >= SET_N - 1 && i < SET_N - 1 + n &&
            (!files[i - (SET_N - 1)]->closed || in_set(name)))
            continue;
        if (!join(from, sizeof from, commit, name) || !join(to, sizeof to, s->dir, name) ||
            (rename(from, to) != 0 && errno != ENOENT)) {
            snprintf(err, errn, "%s: committing %s failed: %s; metrics.json is absent and "
                                "%s holds the rest (the next run here completes it)",
                     s->dir, name, strerror(errno), commit);
            release_lock(s);
            return -1;
        }
    }
    for (int i = 0; i < n; i++)
        files[i]->closed = false;
    rmdir(commit);
    release_lock(s);
    return 0;
}

void rset_file_abort(rset_file *o)
{
    if (o->f) {
        fclose(o->f);
        o->f = NULL;
    }
    if (o->tmp[0])
        unlink(o->tmp);
    o->closed = false;
}

void rset_abort(rset_t *s)
{
    if (s->stage[0])
        remove_flat_dir(s->stage);
    release_lock(s);
    rset_rmdirs(s->dir, s->created);
}

bool rset_has_complete(const char *dir)
{
    char path[RSET_PATH_MAX];
    if (!join(path, sizeof path, dir, "metrics.json"))
        return false;
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[256];
    bool complete = false;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "\"partial\": false"))
            complete = true;
    fclose(f);
    return complete;
}
