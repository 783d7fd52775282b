/*
 * browser.c: what browsers are trusted with (docs/server.md, "The
 * contract", Browsers).
 *
 * A browser runs pages from any site, and each may send requests here.
 * Three checks keep another site's page from using a player's seat:
 *
 *   - Host: a page of evil.example whose name is made to resolve to this
 *     server (DNS rebinding) sends "Host: evil.example".  Only the names
 *     the server answers to pass: its --bind address, --host's names,
 *     --origin's hosts, localhost, and addresses written as numbers
 *     (rebinding needs a name).
 *   - Origin: a POST or a WebSocket from a page of another origin is
 *     refused unless --origin allows it.  (A form cannot send JSON with
 *     the Content-Type the routes require, so another page cannot even
 *     try without a CORS preflight, which is refused too.)
 *   - CORS headers go only to --origin's origins; no others get any.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "server/server.h"

static struct {
    const char *bind;    /* --bind */
    const char *hosts;   /* --host, comma-separated */
    const char *origins; /* --origin, comma-separated */
} browser;

void browser_configure(const server_options *options)
{
    browser.bind = options->bind ? options->bind : "";
    browser.hosts = options->hosts ? options->hosts : "";
    browser.origins = options->origins ? options->origins : "";
}

/* Whether the comma-separated list holds item (length bytes), ignoring case. */
static bool listed(const char *list, const char *item, size_t length)
{
    for (const char *p = list; *p;) {
        size_t size = strcspn(p, ",");
        if (size == length && !strncasecmp(p, item, length)) return true;
        p += size + (p[size] == ',');
    }
    return false;
}

/* The name part of a Host ("a.example:8080" -> "a.example", "[::1]:80"
 * -> "[::1]"): its length. */
static size_t name_length(const char *host)
{
    if (host[0] == '[') {
        const char *end = strchr(host, ']');
        return end ? (size_t)(end - host) + 1 : strlen(host);
    }
    return strcspn(host, ":");
}

/* Whether name (length bytes) is an address written as numbers. */
static bool numeric(const char *name, size_t length)
{
    if (length && name[0] == '[') return true; /* IPv6 */
    if (!length) return false;
    for (size_t i = 0; i < length; i++)
        if (!isdigit((unsigned char)name[i]) && name[i] != '.') return false;
    return true;
}

/* Whether an --origin names host (scheme://host[:port]). */
static bool origin_names_host(const char *name, size_t length)
{
    for (const char *p = browser.origins; *p;) {
        size_t size = strcspn(p, ",");
        const char *scheme_end = strstr(p, "://");
        if (scheme_end && scheme_end < p + size) {
            const char *host = scheme_end + 3;
            size_t host_size = (size_t)(p + size - host);
            char copy[256];
            snprintf(copy, sizeof copy, "%.*s", (int)host_size, host);
            if (name_length(copy) == length && !strncasecmp(copy, name, length)) return true;
        }
        p += size + (p[size] == ',');
    }
    return false;
}

bool browser_host_allowed(const char *host)
{
    size_t length = name_length(host);
    if (host[length] && host[length] != ':') return false;
    if (host[length] == ':' && strspn(host + length + 1, "0123456789") != strlen(host + length + 1))
        return false;
    if (numeric(host, length)) return true;
    if (length == 9 && !strncasecmp(host, "localhost", 9)) return true;
    if (strlen(browser.bind) == length && !strncasecmp(browser.bind, host, length)) return true;
    return listed(browser.hosts, host, length) || origin_names_host(host, length);
}

bool browser_cors_origin(const char *origin)
{
    return origin[0] && listed(browser.origins, origin, strlen(origin));
}

bool browser_origin_allowed(const char *origin, const char *host)
{
    if (!origin[0]) return true; /* programs send none */
    char own[320];
    snprintf(own, sizeof own, "http://%s", host);
    if (!strcasecmp(origin, own)) return true;
    snprintf(own, sizeof own, "https://%s", host);
    if (!strcasecmp(origin, own)) return true;
    return browser_cors_origin(origin);
}

void browser_cors_headers(const char *origin, char *out, size_t size)
{
    out[0] = '\0';
    if (browser_cors_origin(origin))
        snprintf(out, size, "Access-Control-Allow-Origin: %s\r\nVary: Origin\r\n", origin);
}
