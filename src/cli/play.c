/*
 * play.c: `gateau play GAME --players N --seats human,random,...`: a game in
 * the terminal; `gateau play RECORD` (or --resume RECORD) goes on with a
 * saved one.  Humans type moves in the notation; each human sees only his
 * own seat's view.  Commands: help, moves, rules, key, hint, undo, save
 * FILE, quit.
 *
 * A saved record notes in its header comment the command that started the
 * game (`gateau play --seats ... --seed S`), so resuming needs no flags.
 * Chance and the bots draw from (seed, move number): a game resumed, or a
 * position reached again after undo, goes on as it would have.
 */
#include <assert.h>
#include <ctype.h>
#include <editline/readline.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

enum { PLAY_MAX_LINE = 4096 }; /* the longest input line (a move is far shorter) */

/* Where a human's decision began: undo goes back to one. */
typedef struct play_decision {
    int move; /* the record's move count then */
    int seat;
} play_decision;

typedef struct play_session {
    const gateau_setup *setup;
    gateau_match *match;
    gateau_record *record;  /* the match's */
    gateau_record *resumed; /* the record resumed from, or NULL */
    int players;
    cli_seats seats;                          /* --seats */
    const char *bot_spec[GATEAU_MAX_PLAYERS]; /* in seats; NULL for a human */
    int humans;
    uint64_t seed;
    gateau_rng bot_rng;
    bool color;        /* ANSI colors on stdout */
    bool interactive;  /* stdin is a terminal: line editing */
    bool screen;       /* stdin and stdout are a terminal: hot-seat handovers wait */
    const char *record_path;
    play_decision *decisions;
    int decision_count, decision_capacity;
    int viewer;        /* whose eyes the commentary uses (the human at the screen) */
    int seen[GATEAU_MAX_PLAYERS]; /* moves described to each human so far */
    gateau_bot *hint_bot; /* for `hint`, made when first asked */
} play_session;

/* ---- Seats, names and the header comment -------------------------------------- */

static bool parse_seats(play_session *session, const char *seats)
{
    if (!cli_parse_seats("play", seats, session->players, &session->seats)) return false;
    for (int s = 0; s < session->seats.count; s++) {
        const char *spec = session->seats.specs[s];
        if (!strcmp(spec, "human")) {
            session->humans++;
            continue;
        }
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

/* --names Ann,Bob,...: one name per seat (the record cleans each name). */
static bool apply_names(play_session *session, const char *names)
{
    cli_seats parsed; /* the same comma list as --seats */
    if (!cli_parse_seats("play --names", names, 0, &parsed)) return false;
    if (parsed.count != session->players) {
        cli_error("play: --names gives %d name%s for %d players", parsed.count,
                  parsed.count == 1 ? "" : "s", session->players);
        return false;
    }
    for (int s = 0; s < parsed.count; s++)
        gateau_record_set_name(session->record, s, parsed.specs[s]);
    return true;
}

/* What a resumed record's header comment says of how the game was started:
 * the --seats and --seed of its `gateau play` line, when there is one. */
typedef struct play_origin {
    char seats[1024];
    bool has_seed;
    uint64_t seed;
} play_origin;

static bool read_origin(const char *path, const char *comment, play_origin *origin)
{
    memset(origin, 0, sizeof *origin);
    const char *line = strstr(comment, "gateau play ");
    if (!line) return true; /* a record from elsewhere: flags or defaults */
    char copy[1024];
    snprintf(copy, sizeof copy, "%.*s", (int)strcspn(line, "\n"), line);
    char *context = NULL;
    for (char *word = strtok_r(copy, " ", &context); word; word = strtok_r(NULL, " ", &context)) {
        char *value = NULL;
        if (!strcmp(word, "--seats") || !strcmp(word, "--seed")) value = strtok_r(NULL, " ", &context);
        if (!strcmp(word, "--seats") && value) {
            snprintf(origin->seats, sizeof origin->seats, "%s", value);
        } else if (!strcmp(word, "--seed") && value) {
            char flag[512];
            snprintf(flag, sizeof flag, "%s: the header comment's --seed", path);
            if (!cli_parse_integer("play", flag, value, 0, UINT64_MAX, &origin->seed))
                return false;
            origin->has_seed = true;
        }
    }
    return true;
}

/* The command that starts this game, noted in the record for resuming. */
static void note_origin(play_session *session)
{
    char comment[1024];
    int used = snprintf(comment, sizeof comment, "gateau play --seats ");
    for (int s = 0; s < session->players; s++)
        used += snprintf(comment + used, sizeof comment - (size_t)used, "%s%s", s ? "," : "",
                         session->seats.specs[s]);
    snprintf(comment + used, sizeof comment - (size_t)used, " --seed %llu",
             (unsigned long long)session->seed);
    gateau_record_set_comment(session->record, comment);
}

/* ---- Input and output ------------------------------------------------------------- */

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

/* Prints what viewer learns from moves [from, to) of the record. */
static void describe_moves(play_session *session, int from, int to, int viewer)
{
    gateau_state *state = gateau_state_new(session->setup);
    for (int m = 0; m < to; m++) {
        int count, seat = gateau_record_move_seat(session->record, m);
        const gateau_action *actions = gateau_record_move_actions(session->record, m, &count);
        if (m >= from) {
            char *text = gateau_move_describe(state, seat, actions, count, viewer);
            printf("%s\n", text);
            free(text);
        }
        for (int a = 0; a < count; a++) gateau_state_apply_legal(state, seat, actions[a]);
    }
    gateau_state_free(state);
    if (viewer >= 0 && session->seen[viewer] < to) session->seen[viewer] = to;
}

/*
 * Hot seat: two humans share the screen, so before the next one sees his
 * view, the previous one's is cleared off it and the keyboard is handed
 * over; then the next one reads what happened since his last turn, as he
 * may see it.
 */
static bool hand_over(play_session *session, int seat)
{
    if (session->screen) fputs("\033[H\033[2J\033[3J", stdout); /* clear, scrollback too */
    char prompt[256], who[128];
    const char *name = gateau_record_name(session->record, seat);
    snprintf(who, sizeof who, "Seat %d", seat + 1);
    if (strcmp(name, who)) snprintf(who, sizeof who, "%s (seat %d)", name, seat + 1);
    snprintf(prompt, sizeof prompt, "%s, your turn: press Enter when only you see the screen.",
             who);
    if (session->screen) {
        strcat(prompt, " ");
        char *line = read_input(session, prompt);
        if (!line) return false;
        free(line);
    } else {
        printf("\n%s\n", prompt); /* nobody to wait for: the input is a script */
    }
    session->viewer = seat;
    int now = gateau_record_move_count(session->record);
    if (session->seen[seat] < now) {
        printf("Since your last turn:\n");
        describe_moves(session, session->seen[seat], now, seat);
    }
    return true;
}

static void print_help(void)
{
    puts("Type a move in the game's notation (see `gateau rules GAME`), or:\n"
         "  moves       the legal moves now\n"
         "  rules       the rules in brief\n"
         "  key         what each letter, color or variety stands for, and its worth\n"
         "  hint        the best few moves for you (a search from what you know)\n"
         "  undo        back to your previous decision\n"
         "  save FILE   write the record so far (resume it: gateau play FILE)\n"
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

/* ---- A human's turn ------------------------------------------------------------------ */

static void remember_decision(play_session *session, int seat)
{
    if (session->decision_count == session->decision_capacity) {
        session->decision_capacity = session->decision_capacity ? session->decision_capacity * 2 : 32;
        session->decisions = realloc(session->decisions, sizeof(play_decision) *
                                                              (size_t)session->decision_capacity);
        if (!session->decisions) abort();
    }
    session->decisions[session->decision_count++] =
        (play_decision){gateau_record_move_count(session->record), seat};
}

/* Back to seat's previous decision (the last entry is the one being made
 * now): false when there is none. */
static bool undo(play_session *session, int seat)
{
    for (int d = session->decision_count - 2; d >= 0; d--) {
        if (session->decisions[d].seat != seat) continue;
        int move = session->decisions[d].move;
        gateau_record_truncate(session->record, move);
        session->decision_count = d;
        for (int s = 0; s < session->players; s++)
            if (session->seen[s] > move) session->seen[s] = move;
        return true;
    }
    return false;
}

typedef enum { TURN_PLAYED, TURN_UNDONE, TURN_QUIT } turn_result;

static void save_command(play_session *session, const char *path)
{
    char error[512];
    while (isspace((unsigned char)*path)) path++;
    if (!*path) puts("save needs a file name: save FILE");
    else if (gateau_record_save(session->record, path, error, sizeof error) != 0)
        printf("%s\n", error);
    else printf("Saved to %s (resume: gateau play %s).\n", path, path);
}

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
        } else if (!strcmp(input, "key")) {
            char *key = gateau_game_key(gateau_setup_game(session->setup));
            fputs(key, stdout);
            free(key);
        } else if (!strcmp(input, "moves")) {
            char *legal = gateau_state_describe_legal(gateau_record_state(session->record), seat);
            puts(legal);
            free(legal);
        } else if (!strcmp(input, "undo")) {
            if (undo(session, seat)) {
                puts("Back to your previous decision.");
                result = TURN_UNDONE;
                done = true;
            } else {
                puts("Nothing to undo yet.");
            }
        } else if (!strncmp(input, "save", 4) && (!input[4] || isspace((unsigned char)input[4]))) {
            save_command(session, input + 4);
        } else if (gateau_match_play(session->match, seat, input, error, sizeof error)) {
            done = true;
        } else {
            printf("Not a legal move: %s (type moves or help)\n", error);
        }
        free(line);
        if (done) return result;
    }
}

/* The move seat must make when it has no choice at all (every action of
 * it the only legal one, as Marie's Table's last take): its action count,
 * or 0 when there is a choice. */
static int forced_move(const gateau_state *state, int seat,
                       gateau_action move[GATEAU_MAX_MOVE_ACTIONS])
{
    gateau_state *scratch = gateau_state_clone(state);
    gateau_action legal[GATEAU_MAX_ACTIONS];
    int count = 0;
    do {
        if (count == GATEAU_MAX_MOVE_ACTIONS ||
            gateau_state_legal_actions(scratch, seat, legal) != 1) {
            count = 0;
            break;
        }
        move[count++] = legal[0];
        gateau_state_apply_legal(scratch, seat, legal[0]);
    } while (gateau_state_in_move(scratch) && !gateau_state_is_over(scratch));
    gateau_state_free(scratch);
    return count;
}

/* A resumed game's decisions, for undo: the human seats' moves that were
 * not forced. */
static void remember_decisions(play_session *session)
{
    gateau_state *state = gateau_state_new(session->setup);
    gateau_action forced[GATEAU_MAX_MOVE_ACTIONS];
    for (int m = 0; m < gateau_record_move_count(session->record); m++) {
        int count, seat = gateau_record_move_seat(session->record, m);
        const gateau_action *actions = gateau_record_move_actions(session->record, m, &count);
        if (seat >= 0 && !session->bot_spec[seat] && !forced_move(state, seat, forced)) {
            remember_decision(session, seat);
            session->decisions[session->decision_count - 1].move = m;
        }
        for (int a = 0; a < count; a++) gateau_state_apply_legal(state, seat, actions[a]);
    }
    gateau_state_free(state);
}

/* ---- The game ----------------------------------------------------------------------- */

/* Prints what the viewing human learns from the move just made. */
static void comment_last_move(play_session *session, const gateau_state *before, bool forced)
{
    int index = gateau_record_move_count(session->record) - 1;
    int count, seat = gateau_record_move_seat(session->record, index);
    const gateau_action *actions = gateau_record_move_actions(session->record, index, &count);
    char *text = gateau_move_describe(before, seat, actions, count, session->viewer);
    printf("%s%s\n", text, forced ? " (the only legal move: played without asking)" : "");
    free(text);
    if (session->viewer >= 0) session->seen[session->viewer] = index + 1;
}

/* How the seats' programs fared, when one failed: the moves the
 * heuristic made for a seat are not its program's. */
static void report_programs(play_session *session)
{
    for (int s = 0; s < session->players; s++) {
        gateau_bot *bot = gateau_match_bot(session->match, s);
        int failures = 0, fallbacks = 0;
        if (bot) gateau_bot_failures(bot, &failures, &fallbacks);
        if (failures)
            printf("Seat %d (%s): its program failed %d time%s; the heuristic made %d of its "
                   "moves.\n", s + 1, session->bot_spec[s], failures, failures == 1 ? "" : "s",
                   fallbacks);
    }
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

/* The bots that are programs (ext:) say the move in their failure lines. */
static void label_programs(play_session *session)
{
    char label[32];
    snprintf(label, sizeof label, "move %d", gateau_record_move_count(session->record) + 1);
    for (int s = 0; s < session->players; s++) {
        gateau_bot *bot = gateau_match_bot(session->match, s);
        if (bot && gateau_bot_observes(bot)) gateau_bot_set_label(bot, label);
    }
}

/* One turn of a human seat: false when the game stops. */
static bool play_human(play_session *session, int seat, bool *forced, bool *undone)
{
    gateau_action move[GATEAU_MAX_MOVE_ACTIONS];
    int count = forced_move(gateau_record_state(session->record), seat, move);
    if (count) {
        *forced = gateau_match_play_actions(session->match, seat, move, count, NULL, 0);
        assert(*forced); /* legal action by legal action */
        return true;
    }
    if (session->humans > 1 && session->viewer != seat && !hand_over(session, seat))
        return false;
    session->viewer = seat;
    remember_decision(session, seat);
    turn_result result = human_turn(session, seat);
    if (result == TURN_QUIT) session->decision_count--;
    *undone = result == TURN_UNDONE;
    return result != TURN_QUIT;
}

static int run(play_session *session)
{
    gateau_state *before = gateau_state_clone(gateau_record_state(session->record));
    const gateau_state *state = gateau_record_state(session->record);
    int status = 0;
    while (!gateau_state_is_over(state)) {
        gateau_state_copy(before, state);
        int seat = gateau_match_waiting_seat(session->match);
        bool forced = false, undone = false;
        if (seat >= 0) {
            if (!play_human(session, seat, &forced, &undone)) {
                status = 3;
                break;
            }
            if (undone) continue;
        } else {
            /* Chance or a bot.  The bots' generator restarts from (seed,
             * move number), as chance does, so that undoing or resuming
             * replays a position the same way. */
            gateau_rng_seed_stream(&session->bot_rng, session->seed,
                                   UINT64_MAX - (uint64_t)gateau_record_move_count(session->record));
            label_programs(session);
            char error[768];
            if (gateau_match_step(session->match, error, sizeof error) == GATEAU_MATCH_FAILED) {
                /* A program failed with onerror=forfeit (docs/protocol.md):
                 * the game ends here, unfinished, and its record is kept. */
                cli_error("play: move %d: %s", gateau_record_move_count(session->record) + 1,
                          error);
                status = 3;
                break;
            }
        }
        comment_last_move(session, before, forced);
    }
    gateau_state_free(before);
    if (status == 0) finish(session);
    else puts("Game stopped.");
    report_programs(session);
    return status;
}

/* The match: the seats' bots share one generator, chance comes by move. */
static bool start_match(play_session *session)
{
    gateau_match_config config = {.setup = session->setup, .chance_by_move = true,
                                  .chance_seed = session->seed, .keep_record = true,
                                  .resume = session->resumed};
    for (int s = 0; s < session->players; s++)
        config.seats[s] = (gateau_match_seat){.bot = session->bot_spec[s], .rng = &session->bot_rng};
    char error[512];
    session->match = gateau_match_new(&config, error, sizeof error);
    if (!session->match) {
        cli_error("play: %s", error);
        return false;
    }
    session->record = gateau_match_record(session->match);
    /* A program that cannot start or answer fails now, not at its first
     * move (with a human to move first, minutes later). */
    for (int s = 0; s < session->players; s++) {
        gateau_bot *bot = gateau_match_bot(session->match, s);
        if (bot && !gateau_bot_start(bot, s, error, sizeof error)) {
            cli_error("play: %s", error);
            return false;
        }
    }
    note_origin(session);
    if (session->resumed) {
        char default_name[32];
        for (int s = 0; s < session->players; s++) {
            const char *name = gateau_record_name(session->resumed, s);
            snprintf(default_name, sizeof default_name, "Seat %d", s + 1);
            if (strcmp(name, default_name)) gateau_record_set_name(session->record, s, name);
        }
        remember_decisions(session);
        for (int s = 0; s < session->players; s++)
            session->seen[s] = gateau_record_move_count(session->record);
    }
    return true;
}

/* ---- The command ---------------------------------------------------------------------- */

/* SIGINT, SIGTERM, SIGHUP: the seats' programs go with gateau (the
 * default action would leave those that do not read their input). */
static void on_signal(int signal_number)
{
    gateau_bot_kill_programs();
    _exit(128 + signal_number);
}

/* With programs at the seats: their descendants are ours to reap, and a
 * signal that ends gateau ends them. */
static bool guard_programs(const play_session *session)
{
    bool programs = false;
    for (int s = 0; s < session->players; s++)
        programs |= session->bot_spec[s] && !strncmp(session->bot_spec[s], "ext:", 4);
    if (!programs) return true;
    char error[256];
    if (!gateau_bot_guard_processes(error, sizeof error)) {
        cli_error("play: %s", error);
        return false;
    }
    struct sigaction action = {.sa_handler = on_signal};
    sigemptyset(&action.sa_mask);
    int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) sigaction(signals[i], &action, NULL);
    return true;
}

/* `gateau play RECORD` / --resume RECORD: the record, its setup, and the
 * seats and seed its header comment notes unless the flags give them. */
static bool open_resumed(play_session *session, const char *path, cli_flags *flags,
                         play_origin *origin)
{
    if (flags->players || flags->options[0]) {
        cli_error("play: resuming %s: the players and options are the record's", path);
        return false;
    }
    if (!strcmp(path, "-")) {
        cli_error("play: cannot resume from standard input (moves are typed there)");
        return false;
    }
    char error[512];
    int line;
    session->resumed = gateau_record_read_file(path, error, sizeof error, &line);
    if (!session->resumed) {
        if (line) cli_error("play: %s:%d: %s", path, line, error);
        else cli_error("play: %s", error);
        return false;
    }
    session->setup = gateau_record_setup(session->resumed);
    if (!read_origin(path, gateau_record_comment(session->resumed), origin)) return false;
    flags->players = gateau_setup_players(session->setup);
    if (!flags->has_seed && origin->has_seed) {
        flags->seed = origin->seed;
        flags->has_seed = true;
    }
    if (!flags->seats && origin->seats[0]) flags->seats = origin->seats;
    if (!flags->record) flags->record = path; /* written back where it came from */
    return true;
}

static void announce(play_session *session)
{
    const gateau_game *game = gateau_setup_game(session->setup);
    if (session->resumed)
        printf("%s, %d players, seed %llu, resumed after %d moves. Type help for commands.\n",
               gateau_game_title(game), session->players, (unsigned long long)session->seed,
               gateau_record_move_count(session->record));
    else
        printf("%s, %d players, seed %llu. Type help for commands.\n", gateau_game_title(game),
               session->players, (unsigned long long)session->seed);
}

/* Parses the flags into the session: 0 to play, else the exit status. */
static int prepare(play_session *session, int argc, char **argv, cli_flags *flags,
                   play_origin *origin, gateau_setup **owned_setup)
{
    if (!cli_parse_flags("play", argc, argv,
                         "players seats seed record options deck names resume", flags))
        return 2;
    const char *resume = flags->resume;
    if (!resume && flags->game && !gateau_game_find(flags->game) && access(flags->game, F_OK) == 0)
        resume = flags->game; /* gateau play RECORD */
    else if (resume && flags->game) {
        cli_error("play: --resume %s and a game '%s': give one", resume, flags->game);
        return 2;
    }
    if (!resume && !flags->game) {
        cli_error("play: usage: gateau play GAME --players N --seats human,random,... "
                  "[--seed S] [--record FILE] [--options k=v ...], or gateau play RECORD");
        return 2;
    }
    if (resume) {
        if (!open_resumed(session, resume, flags, origin)) return 1;
    } else {
        *owned_setup = cli_setup("play", flags);
        if (!*owned_setup) return 1;
        session->setup = *owned_setup;
    }
    session->players = flags->players;
    session->record_path = flags->record;
    char default_seats[128] = "human";
    for (int s = 1; s < flags->players; s++) strcat(default_seats, ",heuristic");
    if (!parse_seats(session, flags->seats ? flags->seats : default_seats)) return 1;
    session->seed = flags->has_seed ? flags->seed : cli_fresh_seed();
    session->color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    session->interactive = isatty(STDIN_FILENO);
    session->screen = session->interactive && isatty(STDOUT_FILENO);
    for (int s = flags->players - 1; s >= 0; s--)
        if (!session->bot_spec[s]) session->viewer = s; /* the first human's eyes */
    if (session->record_path && !cli_check_writable("play", "--record", session->record_path))
        return 1;
    return 0;
}

int cli_play(int argc, char **argv)
{
    cli_flags flags;
    play_origin origin;
    gateau_setup *owned_setup = NULL;
    play_session session = {.viewer = GATEAU_OBSERVER};
    int status = prepare(&session, argc, argv, &flags, &origin, &owned_setup);
    if (status == 0 && (!guard_programs(&session) || !start_match(&session))) status = 1;
    if (status == 0 && flags.names && !apply_names(&session, flags.names)) status = 2;
    if (status == 0) {
        announce(&session);
        status = run(&session);
        if (session.record_path) {
            char error[512];
            if (gateau_record_save(session.record, session.record_path, error, sizeof error)) {
                cli_error("play: %s", error);
                status = 1;
            } else {
                printf("Record written to %s.\n", session.record_path);
            }
        }
    }
    gateau_match_free(session.match);
    gateau_bot_free(session.hint_bot);
    gateau_record_free(session.resumed);
    free(session.decisions);
    gateau_setup_free(owned_setup);
    return status;
}
