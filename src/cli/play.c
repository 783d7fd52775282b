/*
 * play.c: `gateau play GAME --players N --seats human,random,...`: a game in
 * the terminal.  Humans type moves in the notation; each human sees only
 * his own seat's view.  Commands: help, moves, undo, save FILE, quit.
 */
#include <ctype.h>
#include <editline/readline.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

enum { PLAY_MAX_LINE = 4096 }; /* the longest input line (a move is far shorter) */

typedef struct play_session {
    const gateau_setup *setup;
    gateau_match *match;
    gateau_record *record; /* the match's */
    const char *game_name;
    int players;
    cli_seats seats;                          /* --seats */
    const char *bot_spec[GATEAU_MAX_PLAYERS]; /* in seats; NULL for a human */
    uint64_t seed;
    gateau_rng bot_rng;
    bool color;        /* ANSI colors on stdout */
    bool interactive;  /* stdin is a terminal: line editing */
    const char *record_path;
    /* Where each of a human's moves began, for undo. */
    int *human_moves;
    int human_move_count, human_move_capacity;
    int viewer;        /* whose eyes the commentary uses */
    gateau_bot *hint_bot; /* for `hint`, made when first asked */
} play_session;

static bool parse_seats(play_session *session, const char *seats)
{
    if (!cli_parse_seats("play", seats, session->players, &session->seats)) return false;
    for (int s = 0; s < session->seats.count; s++) {
        const char *spec = session->seats.specs[s];
        if (!strcmp(spec, "human")) continue;
        char error[256];
        gateau_bot *bot = gateau_bot_new(spec, error, sizeof error);
        if (!bot) {
            cli_error("play: seat %d: %s (or human)", s + 1, error);
            return false;
        }
        gateau_bot_free(bot);
        session->bot_spec[s] = spec;
        const char *instead = gateau_bot_fallback(spec, gateau_setup_game(session->setup));
        if (instead)
            printf("Seat %d: %s plays %s in %s (the game has no %s of its own).\n", s + 1, spec,
                   instead, gateau_game_title(gateau_setup_game(session->setup)), spec);
    }
    return true;
}

/* One line of input, or NULL at end of input. */
static char *read_input(play_session *session, const char *prompt)
{
    if (session->interactive) {
        char *line = readline(prompt);
        if (line && *line) add_history(line);
        return line;
    }
    fputs(prompt, stdout);
    fflush(stdout);
    /* Bounded: `gateau play < /dev/zero` must not read gigabytes. */
    char *line = malloc(PLAY_MAX_LINE + 2);
    if (!line) abort(); /* out of memory */
    size_t length = 0;
    int c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (c == '\0' || length == PLAY_MAX_LINE) {
            cli_error("play: the input is not lines of text (a NUL byte or a line over %d "
                      "bytes): the game stops", PLAY_MAX_LINE);
            free(line);
            return NULL;
        }
        line[length++] = (char)c;
    }
    if (c == EOF && length == 0) {
        free(line);
        return NULL;
    }
    line[length] = '\0';
    line[strcspn(line, "\r")] = '\0';
    return line;
}

static void show_view(play_session *session, int seat)
{
    char *view = gateau_state_view_text(gateau_record_state(session->record), seat,
                                        session->color);
    printf("\n%s", view);
    free(view);
}

static void remember_human_move(play_session *session)
{
    if (session->human_move_count == session->human_move_capacity) {
        session->human_move_capacity = session->human_move_capacity ? session->human_move_capacity * 2 : 32;
        session->human_moves = realloc(session->human_moves,
                                       sizeof(int) * (size_t)session->human_move_capacity);
        if (!session->human_moves) abort();
    }
    session->human_moves[session->human_move_count++] =
        gateau_record_move_count(session->record);
}

static void print_help(void)
{
    puts("Type a move in the game's notation (see `gateau rules GAME`), or:\n"
         "  moves       the legal moves now\n"
         "  rules       the rules in brief (the game's letters and values)\n"
         "  hint        the best few moves for you (a search from what you know)\n"
         "  undo        back to your previous decision\n"
         "  save FILE   write the record so far (replay or resume it later)\n"
         "  help        this text\n"
         "  quit        stop (the record is still written with --record)");
}

/* The best few moves for seat by ismcts, from the seat's information only
 * (gateau_bot_analyse determinizes for the seat).  Its random stream
 * comes from (seed, move number), apart from the bots'. */
static void show_hint(play_session *session, int seat)
{
    enum { HINT_ITERATIONS = 20000, HINT_TOP = 5 };
    if (!session->hint_bot) {
        char spec[64], error[256];
        snprintf(spec, sizeof spec, "ismcts:iters=%d", HINT_ITERATIONS);
        session->hint_bot = gateau_bot_new(spec, error, sizeof error);
        if (!session->hint_bot) {
            printf("No hint: %s\n", error);
            return;
        }
    }
    gateau_rng rng;
    gateau_rng_seed_stream(&rng, session->seed ^ 0x68696e74u,
                           (uint64_t)gateau_record_move_count(session->record));
    gateau_bot_candidate results[HINT_TOP];
    int count = gateau_bot_analyse(session->hint_bot, gateau_record_state(session->record), seat,
                                   &rng, results, HINT_TOP);
    char budget[64];
    snprintf(budget, sizeof budget, "ismcts, %d simulations", HINT_ITERATIONS);
    cli_print_hint(stdout, gateau_setup_game(session->setup), results, count, seat, budget);
}

typedef enum { TURN_PLAYED, TURN_UNDONE, TURN_QUIT } turn_result;

static turn_result human_turn(play_session *session, int seat)
{
    show_view(session, seat);
    char prompt[64];
    snprintf(prompt, sizeof prompt, "seat %d> ", seat + 1);
    for (;;) {
        char *line = read_input(session, prompt);
        if (!line) return TURN_QUIT;
        char *input = line;
        while (isspace((unsigned char)*input)) input++;
        input[strcspn(input, "\r\n")] = '\0';
        turn_result result = TURN_PLAYED;
        bool done = false;
        char error[512];
        if (!input[0]) {
        } else if (!strcmp(input, "quit") || !strcmp(input, "exit")) {
            result = TURN_QUIT;
            done = true;
        } else if (!strcmp(input, "help")) {
            print_help();
        } else if (!strcmp(input, "hint")) {
            show_hint(session, seat);
        } else if (!strcmp(input, "rules")) {
            fputs(gateau_game_summary(gateau_setup_game(session->setup)), stdout);
        } else if (!strcmp(input, "moves")) {
            char *legal = gateau_state_describe_legal(gateau_record_state(session->record), seat);
            puts(legal);
            free(legal);
        } else if (!strcmp(input, "undo")) {
            /* The last entry is where this turn began; the one before it
             * is where the previous decision began. */
            if (session->human_move_count < 2) {
                puts("Nothing to undo yet.");
            } else {
                session->human_move_count -= 2;
                gateau_record_truncate(session->record,
                                       session->human_moves[session->human_move_count]);
                puts("Back to your previous decision.");
                result = TURN_UNDONE;
                done = true;
            }
        } else if (!strncmp(input, "save", 4) && (!input[4] || isspace((unsigned char)input[4]))) {
            const char *path = input + 4;
            while (isspace((unsigned char)*path)) path++;
            if (!*path) puts("save needs a file name: save FILE");
            else if (gateau_record_save(session->record, path, error, sizeof error) != 0)
                printf("%s\n", error);
            else printf("Saved to %s.\n", path);
        } else {
            if (gateau_match_play(session->match, seat, input, error, sizeof error)) {
                done = true;
            } else {
                printf("Not a legal move: %s (type moves or help)\n", error);
            }
        }
        free(line);
        if (done) return result;
    }
}

/* Prints what the viewing human learns from the move just made. */
static void comment_last_move(play_session *session, const gateau_state *before)
{
    int index = gateau_record_move_count(session->record) - 1;
    int count;
    const gateau_action *actions = gateau_record_move_actions(session->record, index, &count);
    char *text = gateau_move_describe(before, gateau_record_move_seat(session->record, index),
                                      actions, count, session->viewer);
    printf("%s\n", text);
    free(text);
}

static void finish(play_session *session)
{
    const gateau_state *state = gateau_record_state(session->record);
    show_view(session, session->viewer);
    int scores[GATEAU_MAX_PLAYERS];
    gateau_state_scores(state, scores);
    printf("\nFinal scores:");
    for (int s = 0; s < session->players; s++)
        printf("  %s %d", gateau_record_name(session->record, s), scores[s]);
    printf("\n");
}

static int run(play_session *session)
{
    gateau_state *before = gateau_state_clone(gateau_record_state(session->record));
    const gateau_state *state = gateau_record_state(session->record);
    int status = 0;
    while (!gateau_state_is_over(state)) {
        gateau_state_copy(before, state);
        int seat = gateau_match_waiting_seat(session->match);
        if (seat >= 0) {
            session->viewer = seat;
            remember_human_move(session);
            turn_result result = human_turn(session, seat);
            if (result == TURN_QUIT) {
                session->human_move_count--;
                status = 3;
                break;
            }
            if (result == TURN_UNDONE) continue;
        } else {
            /* Chance or a bot.  Chance comes from (seed, move number), so
             * undoing and replaying a position deals the same way again. */
            gateau_match_step(session->match, NULL, 0);
        }
        comment_last_move(session, before);
    }
    gateau_state_free(before);
    if (status == 0) finish(session);
    else puts("Game stopped.");
    return status;
}

/* The match: the seats' bots share one generator, chance comes by move. */
static bool start_match(play_session *session, const gateau_setup *setup)
{
    gateau_rng_seed_stream(&session->bot_rng, session->seed, UINT64_MAX);
    gateau_match_config config = {.setup = setup, .chance_by_move = true,
                                  .chance_seed = session->seed, .keep_record = true};
    for (int s = 0; s < session->players; s++)
        config.seats[s] = (gateau_match_seat){.bot = session->bot_spec[s], .rng = &session->bot_rng};
    char error[512];
    session->match = gateau_match_new(&config, error, sizeof error);
    if (!session->match) {
        cli_error("play: %s", error);
        return false;
    }
    session->record = gateau_match_record(session->match);
    return true;
}

int cli_play(int argc, char **argv)
{
    cli_flags flags;
    if (!cli_parse_flags("play", argc, argv, "players seats seed record options deck", &flags))
        return 2;
    if (!flags.game) {
        cli_error("play: usage: gateau play GAME --players N --seats human,random,... "
                  "[--seed S] [--record FILE] [--options k=v ...]");
        return 2;
    }
    gateau_setup *setup = cli_setup("play", &flags);
    if (!setup) return 1;
    const gateau_game *game = gateau_setup_game(setup);
    char error[512];
    play_session session = {.setup = setup, .game_name = flags.game, .players = flags.players,
                            .record_path = flags.record, .viewer = GATEAU_OBSERVER};
    char default_seats[128] = "human";
    for (int s = 1; s < flags.players; s++) strcat(default_seats, ",heuristic");
    int status = 1;
    if (parse_seats(&session, flags.seats ? flags.seats : default_seats)) {
        session.seed = flags.has_seed ? flags.seed : cli_fresh_seed();
        session.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
        session.interactive = isatty(STDIN_FILENO);
        for (int s = flags.players - 1; s >= 0; s--)
            if (!session.bot_spec[s]) session.viewer = s; /* the first human's eyes */
        bool writable = !session.record_path ||
                        cli_check_writable("play", "--record", session.record_path);
        if (writable && start_match(&session, setup)) {
            printf("%s, %d players, seed %llu. Type help for commands.\n",
                   gateau_game_title(game), flags.players, (unsigned long long)session.seed);
            status = run(&session);
            if (session.record_path) {
                if (gateau_record_save(session.record, session.record_path, error,
                                       sizeof error) != 0) {
                    cli_error("play: %s", error);
                    status = 1;
                } else {
                    printf("Record written to %s.\n", session.record_path);
                }
            }
        }
    }
    gateau_match_free(session.match);
    gateau_bot_free(session.hint_bot);
    free(session.human_moves);
    gateau_setup_free(setup);
    return status;
}
