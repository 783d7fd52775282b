/*
 * chat.c: a table's chat (docs/server.md, "Chat").  Seats post under their
 * seat's name, spectators under a name of their own that may not be a
 * seat's; every message is stored with the table before it is pushed, and
 * whoever opens the table is sent the last CHAT_KEPT.  Each sender (a
 * seat, or a spectator's address) may post CHAT_BURST messages at once and
 * one more every CHAT_REFILL_MS: a bucket of tokens, as the server's
 * request limit is.  Nothing here reads the game: a message holds only
 * what its sender typed.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "server/server.h"

/* One sender's bucket: its tokens (in thousandths, so that the refill
 * keeps its remainders) when it last posted. */
typedef struct chat_bucket {
    int64_t tokens, updated;
} chat_bucket;

struct table_chat {
    bool loaded;                      /* the store's last messages read */
    char *messages[CHAT_KEPT];        /* JSON objects, oldest first */
    int numbers[CHAT_KEPT];           /* their numbers in the store */
    int count;
    chat_bucket seats[GATEAU_MAX_PLAYERS];
    struct {
        char address[64];
        chat_bucket bucket;
    } spectators[CHAT_SPECTATOR_SENDERS];
};

void chat_free(table_chat *chat)
{
    if (!chat) return;
    for (int m = 0; m < chat->count; m++) free(chat->messages[m]);
    free(chat);
}

/* A message as the pages receive it: {"seat": N|null, "name", "text", "at"}. */
static char *message_json(const store_chat *message)
{
    json_t *object = json_pack("{s:o,s:s,s:s,s:I}", "seat",
                               message->seat >= 0 ? json_integer(message->seat + 1) : json_null(),
                               "name", message->name, "text", message->text, "at",
                               (json_int_t)message->posted);
    char *text = object ? json_dumps(object, JSON_COMPACT) : NULL;
    json_decref(object);
    if (!text) abort();
    return text;
}

static void keep(table_chat *chat, char *json, int number)
{
    if (chat->count == CHAT_KEPT) {
        free(chat->messages[0]);
        memmove(chat->messages, chat->messages + 1, sizeof *chat->messages * (CHAT_KEPT - 1));
        memmove(chat->numbers, chat->numbers + 1, sizeof *chat->numbers * (CHAT_KEPT - 1));
        chat->count--;
    }
    chat->numbers[chat->count] = number;
    chat->messages[chat->count++] = json;
}

static bool keep_loaded(void *context, const store_chat *message)
{
    keep(context, message_json(message), message->number);
    return true;
}

/* Whether the chat holds message number already, or it is older than
 * all it holds (a full chat forgot it). */
static bool known(const table_chat *chat, int number)
{
    if (chat->count == CHAT_KEPT && number < chat->numbers[0]) return true;
    for (int m = 0; m < chat->count; m++)
        if (chat->numbers[m] == number) return true;
    return false;
}

/* A message kept, then pushed to every socket of the table. */
static void keep_and_push(server_table *table, const store_chat *message)
{
    char *json = message_json(message);
    keep(table->chat, json, message->number);
    size_t length = strlen(json) + 16;
    char *push = malloc(length);
    if (!push) abort();
    snprintf(push, length, "{\"chat\":[%s]}", json);
    websocket_push_text(table, push);
    free(push);
}

/* The messages another process stored, gathered for chat_catch_up. */
typedef struct chat_news {
    store_chat *list;
    int count;
} chat_news;

static bool gather(void *context, const store_chat *message)
{
    chat_news *news = context;
    news->list[news->count++] = *message;
    return true;
}

void chat_catch_up(server_table *table)
{
    table_chat *chat = table->chat;
    /* (a chat not read yet is read whole when first asked for) */
    if (!chat || !chat->loaded || !table->store || !store_is_shared(table->store)) return;
    chat_news news = {.list = malloc(sizeof *news.list * CHAT_KEPT)};
    if (!news.list) abort();
    char error[512];
    if (!store_load_chat(table->store, table->id, CHAT_KEPT, gather, &news, error, sizeof error))
        server_log("table %s: %s", table->id, error);
    for (int m = 0; m < news.count; m++)
        if (!known(chat, news.list[m].number)) keep_and_push(table, &news.list[m]);
    free(news.list);
}

/* The table's chat, its last messages read from the store the first
 * time: NULL when the store cannot read them. */
static table_chat *chat_of(server_table *table)
{
    if (!table->chat) {
        table->chat = calloc(1, sizeof *table->chat);
        if (!table->chat) abort();
    }
    table_chat *chat = table->chat;
    if (!chat->loaded && table->store) {
        char error[512];
        if (!store_load_chat(table->store, table->id, CHAT_KEPT, keep_loaded, chat, error,
                             sizeof error)) {
            server_log("table %s: %s", table->id, error);
            for (int m = 0; m < chat->count; m++) free(chat->messages[m]);
            chat->count = 0;
            return NULL;
        }
    }
    chat->loaded = true;
    return chat;
}

/* Takes a token from bucket now: 0, or the seconds until one is there. */
static int take_token(chat_bucket *bucket, int64_t now)
{
    const int64_t whole = 1000, most = CHAT_BURST * whole;
    if (!bucket->updated) bucket->tokens = most;
    else bucket->tokens += (now - bucket->updated) * whole / CHAT_REFILL_MS;
    if (bucket->tokens > most) bucket->tokens = most;
    bucket->updated = now;
    if (bucket->tokens >= whole) {
        bucket->tokens -= whole;
        return 0;
    }
    return (int)(((whole - bucket->tokens) * CHAT_REFILL_MS / whole + 999) / 1000);
}

/* The bucket of a spectator's address: the one it had, or the one idle
 * longest (a forgotten address starts full again, as a new one would). */
static chat_bucket *spectator_bucket(table_chat *chat, const char *client)
{
    int oldest = 0;
    for (int i = 0; i < CHAT_SPECTATOR_SENDERS; i++) {
        if (!strcmp(chat->spectators[i].address, client)) return &chat->spectators[i].bucket;
        if (chat->spectators[i].bucket.updated < chat->spectators[oldest].bucket.updated) oldest = i;
    }
    snprintf(chat->spectators[oldest].address, sizeof chat->spectators[oldest].address, "%s",
             client);
    chat->spectators[oldest].bucket = (chat_bucket){0};
    return &chat->spectators[oldest].bucket;
}

/* Whether text is a message: 1 to CHAT_MOST_CHARACTERS characters of
 * UTF-8, not all blank; line breaks and tabs are taken, other control
 * characters are not. */
static bool check_text(const char *text, char *error, size_t error_size)
{
    int characters = 0;
    bool blank = true;
    for (const unsigned char *at = (const unsigned char *)text; *at; at++) {
        if ((*at & 0xc0) != 0x80) characters++; /* (jansson gave valid UTF-8) */
        if (*at < 0x20 && *at != '\n' && *at != '\t') {
            snprintf(error, error_size, "'text' holds a control character");
            return false;
        }
        if (*at == 0x7f || (*at == 0xc2 && at[1] >= 0x80 && at[1] < 0xa0)) { /* DEL, C1 */
            snprintf(error, error_size, "'text' holds a control character");
            return false;
        }
        if (*at != ' ' && *at != '\n' && *at != '\t') blank = false;
    }
    if (blank) {
        snprintf(error, error_size, "'text' is empty");
        return false;
    }
    if (characters > CHAT_MOST_CHARACTERS) {
        snprintf(error, error_size, "'text' is %d characters long: a message has at most %d",
                 characters, CHAT_MOST_CHARACTERS);
        return false;
    }
    return true;
}

/* Whether a spectator's name is one of the seats' (any case of ASCII
 * letters): a spectator does not post as a seat. */
static bool is_seat_name(const server_table *table, const char *name)
{
    for (int s = 0; s < table->players; s++) {
        const char *seat_name = table->seats[s].name[0] ? table->seats[s].name
                                                        : gateau_record_name(table->record, s);
        if (!strcasecmp(seat_name, name)) return true;
    }
    return false;
}

/* The name a message goes under into out: the seat's, or the
 * spectator's own (its ends' spaces trimmed, so that "Ann " is Ann too).
 * 0, or a status with a reason. */
static int sender_name(const server_table *table, int seat, const char *name,
                       char out[STORE_NAME_SIZE], char *error, size_t error_size)
{
    if (seat >= 0) {
        const char *seat_name = table->seats[seat].name;
        snprintf(out, STORE_NAME_SIZE, "%s",
                 seat_name[0] ? seat_name : gateau_record_name(table->record, seat));
        return 0;
    }
    if (!name) {
        snprintf(error, error_size, "'name' is missing: a spectator posts under a name");
        return 400;
    }
    if (!name_check(name, "'name'", error, error_size)) return 400;
    size_t start = strspn(name, " "), length = strlen(name + start);
    while (length && name[start + length - 1] == ' ') length--;
    snprintf(out, STORE_NAME_SIZE, "%.*s", (int)length, name + start);
    if (is_seat_name(table, out)) {
        snprintf(error, error_size, "'name' is a seat's name: a spectator cannot post as a seat");
        return 422;
    }
    return 0;
}

int chat_post(server_table *table, int seat, const char *client, const char *name,
              const char *text, int *retry_after, char *error, size_t error_size)
{
    *retry_after = 0;
    if (!check_text(text, error, error_size)) return 400;
    store_chat message = {.seat = seat >= 0 ? seat : -1, .posted = (int64_t)time(NULL)};
    int refused = sender_name(table, seat, name, message.name, error, error_size);
    if (refused) return refused;
    snprintf(message.text, sizeof message.text, "%s", text);
    table_chat *chat = chat_of(table);
    if (!chat) {
        snprintf(error, error_size, "storage unavailable");
        return 503;
    }
    chat_bucket *bucket = seat >= 0 ? &chat->seats[seat] : spectator_bucket(chat, client);
    *retry_after = take_token(bucket, server_now());
    if (*retry_after) {
        snprintf(error, error_size, "too many messages: %d at once, then one every %d s; try "
                 "again in %d s", CHAT_BURST, CHAT_REFILL_MS / 1000, *retry_after);
        return 429;
    }
    char reason[512];
    message.number = chat->count ? chat->numbers[chat->count - 1] + 1 : 0; /* (no store: tests) */
    if (table->store && !store_append_chat(table->store, table->id, &message, &message.number,
                                           reason, sizeof reason)) {
        server_log("table %s: %s", table->id, reason);
        snprintf(error, error_size, "storage unavailable");
        return 503;
    }
    keep_and_push(table, &message);
    return 0;
}

char *chat_history(server_table *table)
{
    table_chat *chat = chat_of(table);
    if (!chat) return NULL;
    size_t length = 64;
    for (int m = 0; m < chat->count; m++) length += strlen(chat->messages[m]) + 1;
    char *text = malloc(length);
    if (!text) abort();
    size_t used = (size_t)snprintf(text, length, "{\"chat\":[");
    for (int m = 0; m < chat->count; m++)
        used += (size_t)snprintf(text + used, length - used, "%s%s", m ? "," : "",
                                 chat->messages[m]);
    snprintf(text + used, length - used, "],\"chat_history\":true}");
    return text;
}
