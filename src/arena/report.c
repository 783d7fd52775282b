/*
 * report.c: an arena's statistics as the JSON and CSV reports
 * (gateau/arena.h; the formats are documented in docs/arena.md, "Report
 * formats").  Any host writes the same bytes as `gateau arena`.
 */
#include "gateau/arena.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/arena_text.h"

static json_t *interval_json(gateau_interval interval)
{
    return json_pack("[f, f]", interval.low, interval.high);
}

/* The seed as a JSON integer, or as text past what JSON integers hold here. */
static json_t *seed_json(uint64_t seed)
{
    if (seed <= (uint64_t)INT64_MAX) return json_integer((json_int_t)seed);
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)seed);
    return json_string(text);
}

static json_t *report_json(const gateau_arena_stats *stats, const gateau_arena_run_facts *run)
{
    json_t *listed = json_array();
    for (int k = 0; k < stats->players; k++)
        json_array_append_new(listed, json_string(run->bots[k]));
    json_t *bots = json_array();
    for (int d = 0; d < stats->bot_count; d++) {
        const gateau_arena_bot_stats *bot = &stats->bots[d];
        json_t *entry = json_pack(
            "{s:s, s:i, s:f, s:o, s:f, s:f, s:i, s:i}", "bot", bot->spec, "seats", bot->listed,
            "win_share", bot->win_share, "win_interval", interval_json(bot->win_interval),
            "score_mean", bot->score_mean, "score_sd", bot->score_sd, "score_min",
            bot->score_min, "score_max", bot->score_max);
        if (!strncmp(bot->spec, "ext:", 4)) { /* a program: how it fared */
            json_object_set_new(entry, "failures", json_integer(bot->failures));
            json_object_set_new(entry, "fallbacks", json_integer(bot->fallbacks));
        }
        if (stats->has_ratings) {
            json_object_set_new(entry, "rating", json_real(bot->rating));
            json_object_set_new(entry, "strength", json_real(bot->strength));
        }
        json_t *pairwise = json_object(), *shares = json_object(), *meetings = json_object();
        for (int j = 0; j < stats->bot_count; j++) {
            if (j == d) continue;
            const char *other = stats->bots[j].spec;
            json_object_set_new(pairwise, other, json_real(stats->pairwise[d][j]));
            json_object_set_new(shares, other, json_real(stats->pairwise_share[d][j]));
            json_object_set_new(meetings, other, json_integer(stats->meetings[d][j]));
        }
        json_object_set_new(entry, "placed_above", pairwise);
        json_object_set_new(entry, "placed_above_share", shares);
        json_object_set_new(entry, "meetings", meetings);
        json_array_append_new(bots, entry);
    }
    json_t *seats = json_array();
    for (int s = 0; s < stats->players; s++) {
        const gateau_arena_seat_stats *seat = &stats->seats[s];
        json_t *entry = json_pack("{s:i, s:f, s:o, s:f, s:f}", "seat", s + 1, "win_share",
                                  seat->win_share, "win_interval",
                                  interval_json(seat->win_interval), "score_mean",
                                  seat->score_mean, "score_sd", seat->score_sd);
        if (stats->has_programs) {
            json_object_set_new(entry, "failures", json_integer(seat->failures));
            json_object_set_new(entry, "fallbacks", json_integer(seat->fallbacks));
        }
        json_array_append_new(seats, entry);
    }
    const char *game = run->setup ? gateau_game_name(gateau_setup_game(run->setup))
                                  : run->game_name;
    const char *options = run->setup ? gateau_setup_options_text(run->setup) : run->options_text;
    json_t *out = json_pack(
        "{s:s, s:i, s:s, s:o, s:I, s:I, s:b}", "game", game ? game : "", "players",
        stats->players, "options", options ? options : "", "seed", seed_json(run->seed),
        "games_requested", (json_int_t)run->games_requested, "games", (json_int_t)stats->games,
        "interrupted", run->interrupted);
    if (run->failure) json_object_set_new(out, "failure", json_string(run->failure));
    json_object_set_new(out, "seats_listed", listed);
    json_object_set_new(out, "rotation", json_string("game g (1-based): the k-th listed bot "
                                                     "sits at seat ((k-1) + (g-1)) mod N + 1"));
    json_object_set_new(out, "interval", json_string("wilson 95%"));
    json_object_set_new(out, "bots", bots);
    json_object_set_new(out, "seats", seats);
    json_object_set_new(out, "moves",
                        json_pack("{s:f, s:f, s:i, s:i}", "mean", stats->moves_mean, "sd",
                                  stats->moves_sd, "min", stats->moves_min, "max",
                                  stats->moves_max));
    if (stats->has_ratings)
        json_object_set_new(out, "ratings",
                            json_pack("{s:s, s:f, s:i}", "method", "bradley-terry-mm",
                                      "virtual_draws_per_pair", 1.0, "iterations",
                                      stats->rating_iterations));
    return out;
}

char *gateau_arena_report_json(const gateau_arena_stats *stats, const gateau_arena_run_facts *run)
{
    json_t *report = report_json(stats, run);
    char *body = json_dumps(report, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(report);
    if (!body) abort();
    size_t length = strlen(body);
    char *text = realloc(body, length + 2);
    if (!text) abort();
    text[length] = '\n';
    text[length + 1] = '\0';
    return text;
}

/* ---- CSV -------------------------------------------------------------------------- */

char *gateau_arena_report_csv(const gateau_arena_stats *stats, const gateau_arena_run_facts *run)
{
    text_buffer out = {0};
    arena_append(&out, "section,subject,statistic,value\n");
    arena_append(&out, "arena,all,games,%ld\n", stats->games);
    arena_append(&out, "arena,all,interrupted,%d\n", run->interrupted ? 1 : 0);
    if (run->failure) arena_append(&out, "arena,all,failed,1\n");
    for (int d = 0; d < stats->bot_count; d++) {
        const gateau_arena_bot_stats *bot = &stats->bots[d];
        const char *spec = bot->spec;
        /* Quoted: specs may hold ':' and '=', never '"' in practice. */
        arena_append(&out, "bot,\"%s\",seats,%d\n", spec, bot->listed);
        arena_append(&out, "bot,\"%s\",win_share,%.17g\n", spec, bot->win_share);
        arena_append(&out, "bot,\"%s\",win_low,%.17g\n", spec, bot->win_interval.low);
        arena_append(&out, "bot,\"%s\",win_high,%.17g\n", spec, bot->win_interval.high);
        arena_append(&out, "bot,\"%s\",score_mean,%.17g\n", spec, bot->score_mean);
        arena_append(&out, "bot,\"%s\",score_sd,%.17g\n", spec, bot->score_sd);
        arena_append(&out, "bot,\"%s\",score_min,%d\n", spec, bot->score_min);
        arena_append(&out, "bot,\"%s\",score_max,%d\n", spec, bot->score_max);
        if (!strncmp(spec, "ext:", 4)) {
            arena_append(&out, "bot,\"%s\",failures,%ld\n", spec, bot->failures);
            arena_append(&out, "bot,\"%s\",fallbacks,%ld\n", spec, bot->fallbacks);
        }
        if (stats->has_ratings) {
            arena_append(&out, "bot,\"%s\",rating,%.17g\n", spec, bot->rating);
            arena_append(&out, "bot,\"%s\",strength,%.17g\n", spec, bot->strength);
        }
        for (int j = 0; j < stats->bot_count; j++)
            if (j != d)
                arena_append(&out, "bot,\"%s\",placed_above:%s,%.17g\n", spec, stats->bots[j].spec,
                             stats->pairwise[d][j]);
        for (int j = 0; j < stats->bot_count; j++)
            if (j != d)
                arena_append(&out, "bot,\"%s\",placed_above_share:%s,%.17g\n", spec,
                             stats->bots[j].spec, stats->pairwise_share[d][j]);
        for (int j = 0; j < stats->bot_count; j++)
            if (j != d)
                arena_append(&out, "bot,\"%s\",meetings:%s,%ld\n", spec, stats->bots[j].spec,
                             stats->meetings[d][j]);
    }
    for (int s = 0; s < stats->players; s++) {
        const gateau_arena_seat_stats *seat = &stats->seats[s];
        arena_append(&out, "seat,%d,win_share,%.17g\n", s + 1, seat->win_share);
        arena_append(&out, "seat,%d,win_low,%.17g\n", s + 1, seat->win_interval.low);
        arena_append(&out, "seat,%d,win_high,%.17g\n", s + 1, seat->win_interval.high);
        arena_append(&out, "seat,%d,score_mean,%.17g\n", s + 1, seat->score_mean);
        arena_append(&out, "seat,%d,score_sd,%.17g\n", s + 1, seat->score_sd);
        if (stats->has_programs) {
            arena_append(&out, "seat,%d,failures,%ld\n", s + 1, seat->failures);
            arena_append(&out, "seat,%d,fallbacks,%ld\n", s + 1, seat->fallbacks);
        }
    }
    arena_append(&out, "moves,all,mean,%.17g\n", stats->moves_mean);
    arena_append(&out, "moves,all,sd,%.17g\n", stats->moves_sd);
    arena_append(&out, "moves,all,min,%d\n", stats->moves_min);
    arena_append(&out, "moves,all,max,%d\n", stats->moves_max);
    return out.data;
}

/* ---- From an arena that ran --------------------------------------------------------- */

static gateau_arena_run_facts facts_of(const gateau_arena *arena,
                                       const gateau_arena_config *config)
{
    return (gateau_arena_run_facts){.setup = config->setup,
                                    .bots = config->bots,
                                    .seed = config->seed,
                                    .games_requested = config->games,
                                    .interrupted = gateau_arena_interrupted(arena)};
}

static void stats_of(const gateau_arena *arena, const gateau_arena_config *config,
                     gateau_arena_stats *stats)
{
    gateau_arena_statistics(gateau_arena_games(arena), gateau_arena_finished(arena),
                            gateau_setup_players(config->setup), config->bots, stats);
}

char *gateau_arena_json(const gateau_arena *arena, const gateau_arena_config *config)
{
    gateau_arena_stats stats;
    stats_of(arena, config, &stats);
    gateau_arena_run_facts run = facts_of(arena, config);
    return gateau_arena_report_json(&stats, &run);
}

char *gateau_arena_csv(const gateau_arena *arena, const gateau_arena_config *config)
{
    gateau_arena_stats stats;
    stats_of(arena, config, &stats);
    gateau_arena_run_facts run = facts_of(arena, config);
    return gateau_arena_report_csv(&stats, &run);
}
