/*
 * addresses.c: the limits per client address (docs/server.md, "Limits").
 *
 * One client must not cost the others anything, so what an address may
 * hold or do is counted here: open connections and WebSockets, requests a
 * second and tables made a minute (each a token bucket: it fills at the
 * rate, up to a burst, and each request takes one token).  Only the
 * loop's thread reads and writes these records, so they need no lock.
 *
 * Records live in a hash table keyed by the address's text.  An address
 * that holds nothing open and whose buckets are full again is forgotten
 * by addresses_sweep, so the table holds about as many records as there
 * are clients at the moment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"

enum { ADDRESS_BUCKETS = 4096, ADDRESS_TEXT_SIZE = 48 };

typedef struct bucket {
    double tokens;
    int64_t last; /* ms, server_now */
} bucket;

struct client_address {
    char text[ADDRESS_TEXT_SIZE];
    int connections, websockets;
    bucket requests, tables;
    client_address *next;
};

static struct {
    client_address *buckets[ADDRESS_BUCKETS];
    int connections, websockets; /* limits, 0 for none */
    double request_rate, request_burst, table_rate, table_burst; /* per ms; tokens */
    const char *trusted;         /* --trusted-proxy, comma-separated */
} addresses;

void addresses_configure(const server_options *options)
{
    addresses.connections = options->address_connections;
    addresses.websockets = options->address_websockets;
    addresses.request_rate = options->address_requests / 1000.0;
    addresses.request_burst = 4.0 * options->address_requests;
    addresses.table_rate = options->address_tables / 60000.0;
    addresses.table_burst = options->address_tables;
    addresses.trusted = options->trusted_proxies ? options->trusted_proxies : "";
}

static unsigned hash(const char *text)
{
    unsigned value = 2166136261u; /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        value = (value ^ *c) * 16777619u;
    return value % ADDRESS_BUCKETS;
}

client_address *addresses_find(const char *text)
{
    unsigned at = hash(text);
    for (client_address *found = addresses.buckets[at]; found; found = found->next)
        if (!strcmp(found->text, text)) return found;
    client_address *made = calloc(1, sizeof *made);
    if (!made) return NULL;
    snprintf(made->text, sizeof made->text, "%s", text);
    int64_t now = server_now();
    made->requests = (bucket){addresses.request_burst, now};
    made->tables = (bucket){addresses.table_burst, now};
    made->next = addresses.buckets[at];
    addresses.buckets[at] = made;
    return made;
}

const char *addresses_text(const client_address *address) { return address->text; }

bool addresses_trusted(const char *text)
{
    size_t length = strlen(text);
    for (const char *p = addresses.trusted; *p;) {
        size_t item = strcspn(p, ",");
        if (item == length && !strncmp(p, text, length)) return true;
        p += item + (p[item] == ',');
    }
    return false;
}

bool addresses_connect(client_address *address, bool limited)
{
    if (limited && addresses.connections && address->connections >= addresses.connections)
        return false;
    address->connections++;
    return true;
}

void addresses_disconnect(client_address *address) { address->connections--; }

bool addresses_open_websocket(client_address *address)
{
    if (addresses.websockets && address->websockets >= addresses.websockets) return false;
    address->websockets++;
    return true;
}

void addresses_close_websocket(client_address *address) { address->websockets--; }

/* Takes a token from the bucket: 0, or the seconds until one is there. */
static int take(bucket *from, double rate, double burst)
{
    if (rate <= 0) return 0; /* no limit */
    int64_t now = server_now();
    from->tokens += (double)(now - from->last) * rate;
    if (from->tokens > burst) from->tokens = burst;
    from->last = now;
    if (from->tokens >= 1) {
        from->tokens -= 1;
        return 0;
    }
    int seconds = (int)((1 - from->tokens) / rate / 1000.0) + 1;
    return seconds;
}

int addresses_request(client_address *address)
{
    return take(&address->requests, addresses.request_rate, addresses.request_burst);
}

int addresses_create_table(client_address *address)
{
    return take(&address->tables, addresses.table_rate, addresses.table_burst);
}

/* Whether a bucket has filled up again since its last use. */
static bool full(const bucket *b, double rate, double burst, int64_t now)
{
    return rate <= 0 || b->tokens + (double)(now - b->last) * rate >= burst;
}

void addresses_sweep(void)
{
    int64_t now = server_now();
    for (int i = 0; i < ADDRESS_BUCKETS; i++) {
        client_address **link = &addresses.buckets[i];
        while (*link) {
            client_address *at = *link;
            if (!at->connections && !at->websockets &&
                full(&at->requests, addresses.request_rate, addresses.request_burst, now) &&
                full(&at->tables, addresses.table_rate, addresses.table_burst, now)) {
                *link = at->next;
                free(at);
            } else {
                link = &at->next;
            }
        }
    }
}

void addresses_free_all(void)
{
    for (int i = 0; i < ADDRESS_BUCKETS; i++) {
        while (addresses.buckets[i]) {
            client_address *next = addresses.buckets[i]->next;
            free(addresses.buckets[i]);
            addresses.buckets[i] = next;
        }
    }
}
