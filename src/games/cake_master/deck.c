/*
 * deck.c: Cake Master's cards: card codes, the default deck built into the
 * binary, and deck files.
 *
 * A card code spells a quarter card out: icing color (W, P, C), the
 * half-rosette digit (0 none, 1 counter-clockwise edge, 2 clockwise edge,
 * 3 both), '*' for a printed whole rosette, then one letter per fruit
 * (r raspberry, b blueberry; canonically the r's first): "W0*", "P3rb".
 * Codes are read in either case ("p3RB"): a letter's place says whether
 * it is a color or a fruit, so no case can be mistaken.
 *
 * A deck file has one item per line, '#' comments and blank lines allowed:
 *
 *   card P3rb
 *   customer fruits=5 rosettes=1
 *
 * Customers are numbered 1..K in file order.  Errors name the file and the
 * line: "deck.txt:7: unknown color 'X'".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/notation.h"
#include "games/cake_master/cake_master.h"

const char CM_COLOR_LETTER[CM_COLORS + 1] = "WPC";
const char *const CM_COLOR_NAME[CM_COLORS] = {"white", "pink", "chocolate"};
const char *const CM_FEATURE_NAME[CM_FEATURES] = {"colors",      "rosettes",    "halves",
                                                  "raspberries", "blueberries", "fruits"};

/* ---- Card codes ------------------------------------------------------------ */

bool cm_card_parse(const char *text, cm_card *card, char *why, size_t why_size)
{
    memset(card, 0, sizeof *card);
    const char *color = text[0] ? strchr(CM_COLOR_LETTER, notation_upper(text[0])) : NULL;
    if (!text[0]) {
        set_error(why, why_size, "empty card code");
        return false;
    }
    if (!color) {
        set_error(why, why_size, "unknown color '%c'", text[0]);
        return false;
    }
    card->color = (uint8_t)(color - CM_COLOR_LETTER);
    if (text[1] < '0' || text[1] > '3') {
        if (text[1]) set_error(why, why_size, "'%c' is not a half-rosette digit 0-3", text[1]);
        else set_error(why, why_size, "no half-rosette digit 0-3 after the color");
        return false;
    }
    card->halves = (uint8_t)(text[1] - '0');
    const char *p = text + 2;
    if (*p == '*') {
        card->whole = true;
        p++;
    }
    for (; *p; p++) {
        char fruit = notation_lower(*p);
        if (fruit == 'r') card->raspberries++;
        else if (fruit == 'b') card->blueberries++;
        else if (*p == '*') {
            set_error(why, why_size, "'*' must come right after the half-rosette digit");
            return false;
        } else {
            set_error(why, why_size, "unknown fruit '%c' (r or b)", *p);
            return false;
        }
        if (card->raspberries + card->blueberries > CM_MAX_FRUIT) {
            set_error(why, why_size, "more than %d fruits on one card", CM_MAX_FRUIT);
            return false;
        }
    }
    return true;
}

void cm_card_format(const cm_card *card, char code[CM_CODE_SIZE])
{
    int n = 0;
    code[n++] = CM_COLOR_LETTER[card->color];
    code[n++] = (char)('0' + card->halves);
    if (card->whole) code[n++] = '*';
    for (int i = 0; i < card->raspberries; i++) code[n++] = 'r';
    for (int i = 0; i < card->blueberries; i++) code[n++] = 'b';
    code[n] = '\0';
}

static bool same_card(const cm_card *a, const cm_card *b)
{
    return a->color == b->color && a->halves == b->halves && a->whole == b->whole &&
           a->raspberries == b->raspberries && a->blueberries == b->blueberries;
}

int cm_deck_find(const cm_deck *deck, const cm_card *card)
{
    for (int k = 0; k < deck->kind_count; k++)
        if (same_card(&deck->kind[k], card)) return k;
    return -1;
}

/* Adds one card; the caller has checked there is room. */
static void deck_add_card(cm_deck *deck, const cm_card *card)
{
    int k = cm_deck_find(deck, card);
    if (k < 0) {
        k = deck->kind_count++;
        deck->kind[k] = *card;
        deck->copies[k] = 0;
        cm_card_format(card, deck->code[k]);
    }
    deck->copies[k]++;
    deck->card_count++;
}

void cm_customer_format(const cm_customer *customer, gateau_text *out)
{
    int shown = 0;
    for (int f = 0; f < CM_FEATURES; f++)
        if (customer->demand[f] >= 0)
            text_append(out, "%s%s=%d", shown++ ? " " : "", CM_FEATURE_NAME[f],
                        customer->demand[f]);
}

/* ---- The default deck ---------------------------------------------------------- */

void cm_deck_default(cm_deck *deck)
{
    memset(deck, 0, sizeof *deck);
    /* Per color, halves 0..3, fruit none, r, b, rb, rr, bb: cards 1..72.
     * Cards without halves and with at most one fruit carry a whole rosette. */
    static const uint8_t fruit[6][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 0}, {0, 2}};
    for (int color = 0; color < CM_COLORS; color++)
        for (int halves = 0; halves < 4; halves++)
            for (int f = 0; f < 6; f++) {
                cm_card card = {(uint8_t)color, (uint8_t)halves, halves == 0 && f < 3,
                                fruit[f][0], fruit[f][1]};
                deck_add_card(deck, &card);
            }
    /* Customers 1..12: -1 leaves a characteristic out. */
    static const int8_t demands[12][CM_FEATURES] = {
        /* colors rosettes halves raspberries blueberries fruits */
        {-1, -1, -1, 5, -1, -1}, /* 1 */
        {-1, -1, -1, -1, 5, -1}, /* 2 */
        {-1, 1, -1, -1, -1, 5},  /* 3 */
        {1, -1, -1, 0, -1, -1},  /* 4 */
        {1, -1, -1, -1, 0, -1},  /* 5 */
        {3, 2, -1, -1, -1, -1},  /* 6 */
        {-1, 3, -1, -1, -1, -1}, /* 7 */
        {-1, -1, 0, -1, -1, 4},  /* 8 */
        {2, -1, -1, 2, 2, -1},   /* 9 */
        {-1, -1, -1, -1, -1, 0}, /* 10 */
        {-1, -1, 2, 3, -1, -1},  /* 11 */
        {-1, -1, -1, -1, -1, 7}, /* 12 */
    };
    deck->customer_count = 12;
    for (int c = 0; c < 12; c++) memcpy(deck->customer[c].demand, demands[c], CM_FEATURES);
}

/* ---- Deck files ------------------------------------------------------------------- */

typedef struct deck_reader {
    cm_deck *deck;
    const char *path;
    int line;
    char *error;
    size_t error_size;
} deck_reader;

static bool deck_card_line(deck_reader *r, const notation_words *w)
{
    if (w->count != 2) {
        set_error(r->error, r->error_size, "%s:%d: 'card' is followed by one card code, as in "
                  "'card P3rb'", r->path, r->line);
        return false;
    }
    cm_card card;
    char why[160];
    if (!cm_card_parse(w->word[1], &card, why, sizeof why)) {
        set_error(r->error, r->error_size, "%s:%d: %s in card '%s'", r->path, r->line, why,
                  w->word[1]);
        return false;
    }
    if (r->deck->card_count == CM_MAX_CARDS) {
        set_error(r->error, r->error_size, "%s:%d: more than %d cards (the most a deck may "
                  "hold)", r->path, r->line, CM_MAX_CARDS);
        return false;
    }
    deck_add_card(r->deck, &card);
    return true;
}

static bool deck_customer_line(deck_reader *r, const notation_words *w)
{
    if (r->deck->customer_count == CM_MAX_CUSTOMERS) {
        set_error(r->error, r->error_size, "%s:%d: more than %d customers (the most a deck "
                  "may hold)", r->path, r->line, CM_MAX_CUSTOMERS);
        return false;
    }
    cm_customer customer;
    memset(customer.demand, -1, sizeof customer.demand);
    if (w->count < 2) {
        set_error(r->error, r->error_size, "%s:%d: a customer needs at least one demand, as "
                  "in 'customer fruits=5 rosettes=1'", r->path, r->line);
        return false;
    }
    for (int i = 1; i < w->count; i++) {
        const char *item = w->word[i];
        const char *equals = strchr(item, '=');
        size_t length = equals ? (size_t)(equals - item) : strlen(item);
        int f = 0;
        while (f < CM_FEATURES && (strlen(CM_FEATURE_NAME[f]) != length ||
                                   strncmp(CM_FEATURE_NAME[f], item, length) != 0))
            f++;
        if (f == CM_FEATURES) {
            set_error(r->error, r->error_size, "%s:%d: unknown characteristic '%.*s' (colors, "
                      "rosettes, halves, raspberries, blueberries, fruits)", r->path, r->line,
                      (int)length, item);
            return false;
        }
        int low = f == CM_FEATURE_COLORS ? 1 : 0, high = f == CM_FEATURE_COLORS ? 3 : CM_MAX_DEMAND;
        int value;
        if (!equals || !notation_int(equals + 1, low, high, &value)) {
            set_error(r->error, r->error_size, "%s:%d: '%s': %s= takes a whole number from %d "
                      "to %d", r->path, r->line, item, CM_FEATURE_NAME[f], low, high);
            return false;
        }
        if (customer.demand[f] >= 0) {
            set_error(r->error, r->error_size, "%s:%d: '%s' is given twice", r->path, r->line,
                      CM_FEATURE_NAME[f]);
            return false;
        }
        customer.demand[f] = (int8_t)value;
    }
    r->deck->customer[r->deck->customer_count++] = customer;
    return true;
}

static bool deck_line(deck_reader *r, char *line)
{
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    notation_words w;
    if (!notation_split(line, &w)) {
        set_error(r->error, r->error_size, "%s:%d: line too long", r->path, r->line);
        return false;
    }
    if (w.count == 0) return true;
    if (strcmp(w.word[0], "card") == 0) return deck_card_line(r, &w);
    if (strcmp(w.word[0], "customer") == 0) return deck_customer_line(r, &w);
    /* (The line is not quoted: a deck option may name any file, and an
     * error must not show another file's contents.) */
    set_error(r->error, r->error_size, "%s:%d: expected 'card CODE' or 'customer key=value "
              "...'", r->path, r->line);
    return false;
}

bool cm_deck_load(cm_deck *deck, const char *path, char *error, size_t error_size)
{
    memset(deck, 0, sizeof *deck);
    /* A deck is a regular file of bounded size: not a device that never
     * ends (/dev/zero), a pipe that may never answer (/dev/stdin), or a
     * folder.  Opened without blocking, so that a FIFO cannot hang us. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        set_error(error, error_size, "cannot open deck file %s: %s", path, strerror(errno));
        return false;
    }
    struct stat info;
    const char *refusal = NULL;
    if (fstat(fd, &info) != 0) refusal = "cannot be read";
    else if (S_ISDIR(info.st_mode)) refusal = "is a directory";
    else if (!S_ISREG(info.st_mode)) refusal = "is not a regular file";
    else if (info.st_size > CM_DECK_MAX_BYTES) refusal = "is too large for a deck";
    FILE *file = refusal ? NULL : fdopen(fd, "r");
    if (!file) {
        close(fd);
        if (refusal) set_error(error, error_size, "deck file %s %s (a deck is a text file of at "
                               "most %d bytes)", path, refusal, CM_DECK_MAX_BYTES);
        else set_error(error, error_size, "cannot open deck file %s: %s", path, strerror(errno));
        return false;
    }
    deck_reader reader = {deck, path, 0, error, error_size};
    char *line = NULL;
    size_t capacity = 0;
    bool ok = true;
    ssize_t got;
    while (ok && (got = getline(&line, &capacity, file)) >= 0) {
        reader.line++;
        if ((size_t)got != strlen(line)) {
            set_error(error, error_size, "%s:%d: not a text line (a NUL byte)", path, reader.line);
            ok = false;
        } else {
            ok = deck_line(&reader, line);
        }
    }
    free(line);
    fclose(file);
    if (!ok) return false;
    if (deck->customer_count < CM_MIN_CUSTOMERS) {
        set_error(error, error_size, "%s: %d customer%s, but a game meets %d", path,
                  deck->customer_count, deck->customer_count == 1 ? "" : "s", CM_MIN_CUSTOMERS);
        return false;
    }
    return true;
}

/* ---- Setup hooks ---------------------------------------------------------------- */

bool cm_prepare(gateau_setup *setup, char *error, size_t error_size)
{
    cm_deck *deck = malloc(sizeof *deck);
    if (!deck) abort();
    const char *path = setup->option_paths[0];
    if (path) {
        if (!cm_deck_load(deck, path, error, error_size)) {
            free(deck);
            return false;
        }
    } else {
        cm_deck_default(deck);
    }
    int needed = cm_deal_size(setup->players);
    if (deck->card_count < needed) {
        set_error(error, error_size, "%s: %d cards, but %d players need at least %d",
                  path ? path : "deck", deck->card_count, setup->players, needed);
        free(deck);
        return false;
    }
    setup->data = deck;
    return true;
}

void cm_release(gateau_setup *setup)
{
    free(setup->data);
    setup->data = NULL;
}
