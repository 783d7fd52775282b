/* support.c: helpers shared by the test programs (see support.h). */
#define _DEFAULT_SOURCE /* usleep */
#include "support.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

gateau_setup *support_setup(const char *game, int players, const char *options)
{
    char error[512] = "";
    const gateau_game *found = gateau_game_find(game);
    cr_assert_not_null(found, "game %s is registered", game);
    gateau_setup *setup = gateau_setup_new(found, players, options, NULL, error, sizeof error);
    cr_assert_not_null(setup, "setup %s/%d/%s: %s", game, players, options ? options : "", error);
    return setup;
}

gateau_record *support_read(const char *text)
{
    char error[512] = "";
    int line = 0;
    gateau_record *record = gateau_record_read(text, NULL, error, sizeof error, &line);
    cr_assert_not_null(record, "record refused at line %d: %s\n%s", line, error, text);
    return record;
}

void support_expect_refused(const char *text, int line, const char *fragment)
{
    char error[512] = "";
    int got_line = -1;
    gateau_record *record = gateau_record_read(text, NULL, error, sizeof error, &got_line);
    cr_assert_null(record, "record should be refused:\n%s", text);
    cr_expect_eq(got_line, line, "error line %d, expected %d (%s)", got_line, line, error);
    cr_expect_not_null(strstr(error, fragment), "error '%s' should mention '%s'", error, fragment);
}

void support_play(gateau_record *record, int seat, const char *move)
{
    char error[512] = "";
    bool ok = gateau_record_play_move(record, seat, move, error, sizeof error);
    cr_assert(ok, "move '%s' by seat %d refused: %s", move, seat + 1, error);
}

void support_refuse(gateau_record *record, int seat, const char *move, const char *fragment)
{
    char error[512] = "";
    char *before = gateau_record_text(record);
    bool ok = gateau_record_play_move(record, seat, move, error, sizeof error);
    cr_assert(!ok, "move '%s' by seat %d should be refused", move, seat + 1);
    cr_expect_not_null(strstr(error, fragment), "error '%s' should mention '%s'", error, fragment);
    char *after = gateau_record_text(record);
    cr_expect_str_eq(before, after, "a refused move changes nothing");
    free(before);
    free(after);
}

void support_play_out(gateau_record *record, gateau_rng *rng)
{
    const gateau_state *state = gateau_record_state(record);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    while (!gateau_state_is_over(state)) {
        if (gateau_state_is_chance(state)) {
            gateau_record_play_chance(record, rng);
            continue;
        }
        int seat = gateau_state_next_seat(state);
        int count = gateau_state_legal_actions(state, seat, actions);
        cr_assert_gt(count, 0, "seat %d to act has legal actions", seat + 1);
        char error[256] = "";
        bool ok = gateau_record_play(record, seat, actions[gateau_rng_below(rng, (uint32_t)count)],
                                     error, sizeof error);
        cr_assert(ok, "legal action refused: %s", error);
    }
}

const char *support_visible_moves(const gateau_record *record, int viewer)
{
    static char marks[8192];
    int moves = gateau_record_move_count(record);
    cr_assert_lt(moves, (int)sizeof marks, "support_visible_moves: too many moves");
    gateau_state *before = gateau_state_new(gateau_record_setup(record));
    for (int m = 0; m < moves; m++) {
        int count, seat = gateau_record_move_seat(record, m);
        const gateau_action *actions = gateau_record_move_actions(record, m, &count);
        marks[m] = gateau_move_visible(before, seat, actions, count, viewer) ? 'v' : '-';
        for (int a = 0; a < count; a++) gateau_state_apply_legal(before, seat, actions[a]);
    }
    marks[moves] = '\0';
    gateau_state_free(before);
    return marks;
}

json_t *support_parse_view(const char *text)
{
    json_error_t error;
    json_t *view = json_loads(text, 0, &error);
    cr_assert_not_null(view, "view is JSON: %s\n%s", error.text, text);
    return view;
}

json_t *support_view(const gateau_state *state, int seat)
{
    char *text = gateau_state_view_json(state, seat);
    json_t *view = support_parse_view(text);
    free(text);
    return view;
}

void support_scores(const gateau_state *state, int scores[GATEAU_MAX_PLAYERS])
{
    gateau_state_scores(state, scores);
}

int support_property_games(int fallback)
{
    const char *text = getenv("GATEAU_PROPERTY_GAMES");
    return text && atoi(text) > 0 ? atoi(text) : fallback;
}

int support_run(const char *arguments, const char *input, char **out)
{
    const char *binary = getenv("GATEAU_BINARY");
    cr_assert_not_null(binary, "GATEAU_BINARY is set by ctest");
    char input_path[] = "/tmp/gateau-test-input-XXXXXX";
    int fd = mkstemp(input_path);
    cr_assert_geq(fd, 0);
    if (input) cr_assert_eq(write(fd, input, strlen(input)), (ssize_t)strlen(input));
    close(fd);
    size_t length = strlen(binary) + strlen(arguments) + strlen(input_path) + 32;
    char *command = malloc(length);
    snprintf(command, length, "%s %s < %s 2>&1", binary, arguments, input_path);
    FILE *pipe = popen(command, "r");
    cr_assert_not_null(pipe);
    size_t size = 0, capacity = 4096;
    char *buffer = malloc(capacity);
    size_t got;
    while ((got = fread(buffer + size, 1, capacity - size - 1, pipe)) > 0) {
        size += got;
        if (capacity - size < 2) buffer = realloc(buffer, capacity *= 2);
    }
    buffer[size] = '\0';
    int status = pclose(pipe);
    unlink(input_path);
    free(command);
    *out = buffer;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Nothing crashed or tripped a sanitizer. */
void support_check_no_crash(int status, const char *output, const char *arguments)
{
    cr_assert_neq(status, -1, "gateau %s was killed by a signal:\n%s", arguments, output);
    cr_assert_lt(status, 126, "gateau %s exited %d (a crash?):\n%s", arguments, status, output);
    cr_assert_null(strstr(output, "Sanitizer"), "gateau %s:\n%s", arguments, output);
    cr_assert_null(strstr(output, "runtime error"), "gateau %s:\n%s", arguments, output);
    cr_assert_null(strstr(output, "Segmentation"), "gateau %s:\n%s", arguments, output);
    cr_assert_null(strstr(output, "Aborted"), "gateau %s:\n%s", arguments, output);
}

void support_write_file(const char *path, const char *text)
{
    FILE *file = fopen(path, "wb");
    cr_assert_not_null(file, "cannot write %s", path);
    fputs(text, file);
    fclose(file);
}

char *support_read_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    cr_assert_not_null(file, "%s exists", path);
    size_t size = 0, capacity = 4096;
    char *text = malloc(capacity);
    size_t got;
    while ((got = fread(text + size, 1, capacity - size - 1, file)) > 0) {
        size += got;
        if (capacity - size < 2) text = realloc(text, capacity *= 2);
    }
    text[size] = '\0';
    fclose(file);
    return text;
}

bool support_file_exists(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0;
}

int support_count_of(const char *text, const char *fragment)
{
    int count = 0;
    size_t length = strlen(fragment);
    for (const char *p = text; (p = strstr(p, fragment)) != NULL; p += length) count++;
    return count;
}

struct criterion_test_params support_all_game_cases(void)
{
    int count = 0;
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        count += gateau_game_max_players(game) - gateau_game_min_players(game) + 1;
    }
    game_case *cases = cr_malloc(sizeof(game_case) * (size_t)count);
    int n = 0;
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        for (int p = gateau_game_min_players(game); p <= gateau_game_max_players(game); p++) {
            memset(&cases[n], 0, sizeof cases[n]);
            snprintf(cases[n].game, sizeof cases[n].game, "%s", gateau_game_name(game));
            cases[n++].players = p;
        }
    }
    return cr_make_param_array(game_case, cases, (size_t)n, NULL);
}

static char temp_dir[64];

void support_temp_setup(void)
{
    strcpy(temp_dir, "/tmp/gateau-test-XXXXXX");
    cr_assert_not_null(mkdtemp(temp_dir));
}

void support_temp_teardown(void)
{
    if (!temp_dir[0]) return;
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", temp_dir);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", temp_dir);
}

const char *support_temp_path(const char *name)
{
    static char paths[8][256];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, sizeof paths[0], "%s/%s", temp_dir, name);
    return path;
}

int support_random_step(gateau_state *state, gateau_rng *rng)
{
    if (gateau_state_is_chance(state)) {
        gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, rng));
        return GATEAU_CHANCE;
    }
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int seat = gateau_state_next_seat(state);
    int count = gateau_state_legal_actions(state, seat, actions);
    cr_assert_gt(count, 0, "seat %d has no legal action", seat + 1);
    gateau_state_apply_legal(state, seat, actions[gateau_rng_below(rng, (uint64_t)count)]);
    return seat;
}

void support_expect_error(const char *arguments, int status, const char *fragment)
{
    char *out = NULL;
    int got = support_run(arguments, NULL, &out);
    cr_expect_eq(got, status, "gateau %s: status %d, expected %d\n%s", arguments, got, status,
                 out);
    cr_expect(strstr(out, fragment), "gateau %s: '%s' expected in:\n%s", arguments, fragment,
              out);
    cr_expect(!strncmp(out, "gateau: ", 8) && strchr(out, '\n') == out + strlen(out) - 1,
              "one line: %s", out);
    free(out);
}

char *support_run_expect(int status, const char *format, ...)
{
    char arguments[4096];
    va_list args;
    va_start(args, format);
    vsnprintf(arguments, sizeof arguments, format, args);
    va_end(args);
    char *out = NULL;
    int got = support_run(arguments, NULL, &out);
    cr_assert_eq(got, status, "gateau %s: status %d, expected %d\n%s", arguments, got, status,
                 out);
    return out;
}

const char *support_process_tag(void)
{
    static char value[64];
    if (!value[0]) {
        snprintf(value, sizeof value, "%d-%ld", (int)getpid(), (long)time(NULL));
        setenv("GATEAU_TEST_TAG", value, 1);
    }
    return value;
}

/* Whether process pid is alive with GATEAU_TEST_TAG=tag in its
 * environment (a zombie has none left to read). */
static bool tagged(int pid, const char *tag)
{
    char path[64], buffer[65536], entry[128];
    snprintf(path, sizeof path, "/proc/%d/environ", pid);
    int file = open(path, O_RDONLY);
    if (file < 0) return false;
    ssize_t length = read(file, buffer, sizeof buffer - 1);
    close(file);
    if (length <= 0) return false;
    buffer[length] = '\0';
    snprintf(entry, sizeof entry, "GATEAU_TEST_TAG=%s", tag);
    for (ssize_t at = 0; at < length; at += (ssize_t)strlen(buffer + at) + 1)
        if (!strcmp(buffer + at, entry)) return true;
    return false;
}

static bool pid_alive_now(int pid)
{
    char path[64], text[512] = "";
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *file = fopen(path, "r");
    if (!file) return false;
    size_t got = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[got] = '\0';
    const char *close = strrchr(text, ')');
    return close && close[1] == ' ' && close[2] != 'Z';
}

bool support_pid_alive(int pid)
{
    for (int tries = 0; tries < 300 && pid_alive_now(pid); tries++) usleep(10000);
    return pid_alive_now(pid);
}

const char *support_processes_left(void)
{
    static char list[1024];
    const char *tag = support_process_tag();
    for (int tries = 0; tries < 300; tries++) {
        list[0] = '\0';
        DIR *proc = opendir("/proc");
        cr_assert_not_null(proc);
        struct dirent *entry;
        while ((entry = readdir(proc))) {
            int pid = atoi(entry->d_name);
            if (pid <= 0 || pid == getpid() || !tagged(pid, tag)) continue;
            char path[64], name[64] = "";
            snprintf(path, sizeof path, "/proc/%d/comm", pid);
            FILE *file = fopen(path, "r");
            if (file) {
                if (fgets(name, sizeof name, file)) name[strcspn(name, "\n")] = '\0';
                fclose(file);
            }
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%d (%s) ", pid, name);
        }
        closedir(proc);
        if (!list[0]) return list;
        usleep(10000);
    }
    return list;
}
