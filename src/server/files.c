/*
 * files.c: the web root's files (the browser's page, its scripts, styles
 * and pictures), on a request thread.
 *
 * Only regular files under the root are served, found one name at a time
 * from the root's own descriptor with O_NOFOLLOW: no name may be "..",
 * start with "." or be a symbolic link, so nothing outside the root can
 * be reached, whatever links someone left in it.  "/" and folders serve
 * their index.html.  An ETag (the file's size and time) lets a browser
 * keep what it has (304).
 */
#define _GNU_SOURCE /* O_NOFOLLOW, O_DIRECTORY */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/server.h"

enum { FILES_MAX_SIZE = 16 * 1024 * 1024 };

const char *files_type(const char *name)
{
    static const struct {
        const char *extension, *type;
    } types[] = {{".html", "text/html; charset=utf-8"},
                 {".js", "text/javascript; charset=utf-8"},
                 {".mjs", "text/javascript; charset=utf-8"},
                 {".css", "text/css; charset=utf-8"},
                 {".json", "application/json"},
                 {".svg", "image/svg+xml"},
                 {".png", "image/png"},
                 {".jpg", "image/jpeg"},
                 {".ico", "image/x-icon"},
                 {".woff2", "font/woff2"},
                 {".txt", "text/plain; charset=utf-8"},
                 {".webmanifest", "application/manifest+json"}};
    size_t length = strlen(name);
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        size_t size = strlen(types[i].extension);
        if (length > size && !strcmp(name + length - size, types[i].extension))
            return types[i].type;
    }
    return "application/octet-stream";
}

/* Opens path's file under the root, one name at a time: a descriptor, or
 * -1 when there is no such regular file (or it is not to be served). */
static int open_under(int root, const char *path, struct stat *status, bool *is_folder)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", path);
    int folder = dup(root);
    char *save = NULL;
    for (char *name = strtok_r(copy, "/", &save); folder >= 0 && name;) {
        if (name[0] == '.') { /* "..", ".", and hidden files */
            close(folder);
            return -1;
        }
        char *next = strtok_r(NULL, "/", &save);
        int opened = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (next ? O_DIRECTORY : 0));
        close(folder);
        folder = opened;
        name = next;
    }
    if (folder < 0 || fstat(folder, status) != 0) {
        if (folder >= 0) close(folder);
        return -1;
    }
    *is_folder = S_ISDIR(status->st_mode);
    if (*is_folder) { /* its index.html */
        int index_file = openat(folder, "index.html", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        close(folder);
        folder = index_file;
        if (folder < 0 || fstat(folder, status) != 0) {
            if (folder >= 0) close(folder);
            return -1;
        }
    }
    if (!S_ISREG(status->st_mode) || status->st_size > FILES_MAX_SIZE) {
        close(folder);
        return -1;
    }
    return folder;
}

void files_answer(const char *root, http_exchange *exchange)
{
    int root_folder = root ? open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    struct stat status;
    bool is_folder = false;
    int file = root_folder >= 0 ? open_under(root_folder, exchange->path, &status, &is_folder) : -1;
    if (root_folder >= 0) close(root_folder);
    if (file < 0) {
        exchange_error(exchange, 404, "no file %.100s", exchange->path);
        return;
    }
    char tag[64];
    snprintf(tag, sizeof tag, "\"%llx-%llx\"", (unsigned long long)status.st_size,
             (unsigned long long)status.st_mtim.tv_sec * 1000000000ull +
                 (unsigned long long)status.st_mtim.tv_nsec);
    /* The browser checks with us before using what it keeps (no-cache),
     * so a new version of the page is seen at once. */
    snprintf(exchange->headers + strlen(exchange->headers),
             sizeof exchange->headers - strlen(exchange->headers),
             "ETag: %s\r\nCache-Control: no-cache\r\n", tag);
    const char *name = strrchr(exchange->path, '/');
    const char *type = files_type(is_folder || !name ? "index.html" : name);
    if (exchange->if_none_match[0] && strstr(exchange->if_none_match, tag)) {
        close(file);
        exchange_answer(exchange, 304, NULL, "");
        return;
    }
    size_t size = (size_t)status.st_size, got = 0;
    char *content = malloc(size + 1);
    if (!content) abort();
    while (got < size) {
        ssize_t n = read(file, content + got, size - got);
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(file);
    if (got != size) {
        free(content);
        exchange_error(exchange, 404, "no file %.100s", exchange->path);
        return;
    }
    content[size] = '\0';
    free(exchange->answer);
    exchange->status = 200;
    exchange->type = type;
    exchange->answer = content;
    exchange->answer_length = size;
}
