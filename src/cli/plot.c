/*
 * plot.c: `gateau arena --plot FILE`: the arena's results drawn with cairo,
 * as PNG or SVG by the file's extension.
 *
 * Three panels: the score distribution of each bot (the share of its
 * scores at each value, binned when the range is wide, with its mean
 * dashed), the win share of each bot and the win share of each seat (bars
 * with their 95% Wilson intervals, a dashed line at the fair 1/N).
 */
#include <cairo.h>
#include <cairo-svg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"

enum { PLOT_WIDTH = 1200, PLOT_HEIGHT = 580 };

typedef struct rgb {
    double r, g, b;
} rgb;

/* A palette that stays apart for the colour-blind (Okabe and Ito). */
static const rgb palette[GATEAU_MAX_PLAYERS] = {
    {0.000, 0.447, 0.698}, {0.902, 0.624, 0.000}, {0.000, 0.620, 0.451},
    {0.800, 0.475, 0.655}, {0.337, 0.706, 0.914}, {0.835, 0.369, 0.000},
};

typedef struct panel {
    double x, y, width, height; /* the plotting area, inside the axes */
    double x_min, x_max, y_min, y_max;
} panel;

static double to_x(const panel *p, double value)
{
    return p->x + (value - p->x_min) / (p->x_max - p->x_min) * p->width;
}

static double to_y(const panel *p, double value)
{
    return p->y + p->height - (value - p->y_min) / (p->y_max - p->y_min) * p->height;
}

/* A step of 1, 2 or 5 times a power of ten giving about `ticks` ticks. */
static double nice_step(double range, int ticks)
{
    if (range <= 0) return 1;
    double raw = range / ticks;
    double power = pow(10, floor(log10(raw)));
    double fraction = raw / power;
    double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
    return nice * power;
}

static void text_at(cairo_t *cr, double x, double y, const char *text, double align_x,
                    double align_y)
{
    cairo_text_extents_t extents;
    cairo_text_extents(cr, text, &extents);
    cairo_move_to(cr, x - extents.width * align_x - extents.x_bearing,
                  y - extents.height * align_y - extents.y_bearing);
    cairo_show_text(cr, text);
}

static void set_color(cairo_t *cr, rgb color, double alpha)
{
    cairo_set_source_rgba(cr, color.r, color.g, color.b, alpha);
}

/* The frame, grid, ticks and labels of a panel. */
static void draw_axes(cairo_t *cr, const panel *p, const char *title, const char *x_label,
                      const char *y_label, bool x_ticks)
{
    cairo_set_font_size(cr, 11);
    double y_step = nice_step(p->y_max - p->y_min, 5);
    for (double v = ceil(p->y_min / y_step) * y_step; v <= p->y_max + 1e-9; v += y_step) {
        double y = to_y(p, v);
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, p->x, y);
        cairo_line_to(cr, p->x + p->width, y);
        cairo_stroke(cr);
        char label[32];
        snprintf(label, sizeof label, "%g", fabs(v) < 1e-12 ? 0.0 : v);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        text_at(cr, p->x - 6, y, label, 1, 0.5);
    }
    if (x_ticks) {
        double x_step = nice_step(p->x_max - p->x_min, 8);
        if (x_step < 1) x_step = 1;
        for (double v = ceil(p->x_min / x_step) * x_step; v <= p->x_max + 1e-9; v += x_step) {
            double x = to_x(p, v);
            cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
            cairo_move_to(cr, x, p->y + p->height);
            cairo_line_to(cr, x, p->y + p->height + 4);
            cairo_stroke(cr);
            char label[32];
            snprintf(label, sizeof label, "%g", fabs(v) < 1e-9 ? 0.0 : v);
            text_at(cr, x, p->y + p->height + 7, label, 0.5, 0);
        }
    }
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1.2);
    cairo_rectangle(cr, p->x, p->y, p->width, p->height);
    cairo_stroke(cr);
    cairo_set_font_size(cr, 14);
    text_at(cr, p->x + p->width / 2, p->y - 12, title, 0.5, 1);
    cairo_set_font_size(cr, 12);
    if (x_label) text_at(cr, p->x + p->width / 2, p->y + p->height + 28, x_label, 0.5, 0);
    if (y_label) {
        cairo_save(cr);
        cairo_translate(cr, p->x - 42, p->y + p->height / 2);
        cairo_rotate(cr, -1.5707963267948966);
        text_at(cr, 0, 0, y_label, 0.5, 0.5);
        cairo_restore(cr);
    }
}

/* The share of each bot's scores per bin, drawn as frequency polygons. */
static void draw_scores(cairo_t *cr, panel *p, const gateau_arena_stats *stats,
                        const gateau_arena_game *games, long count)
{
    int low = 0, high = 1;
    for (int d = 0; d < stats->bot_count; d++) {
        if (d == 0 || stats->bots[d].score_min < low) low = stats->bots[d].score_min;
        if (d == 0 || stats->bots[d].score_max > high) high = stats->bots[d].score_max;
    }
    if (high <= low) high = low + 1;
    int range = high - low + 1;
    int bin_width = range <= 60 ? 1 : (range + 39) / 40;
    int bins = (range + bin_width - 1) / bin_width;
    double *share = calloc((size_t)bins * GATEAU_MAX_PLAYERS, sizeof *share);
    if (!share) abort();
    double totals[GATEAU_MAX_PLAYERS] = {0};
    for (long g = 0; g < count; g++)
        for (int s = 0; s < stats->players; s++) {
            int d = stats->bot_of_listed[games[g].bot_at_seat[s]];
            int bin = (games[g].scores[s] - low) / bin_width;
            if (bin < 0) bin = 0;
            if (bin >= bins) bin = bins - 1;
            share[d * bins + bin] += 1;
            totals[d] += 1;
        }
    double peak = 0;
    for (int d = 0; d < stats->bot_count; d++)
        for (int b = 0; b < bins; b++) {
            if (totals[d] > 0) share[d * bins + b] /= totals[d];
            if (share[d * bins + b] > peak) peak = share[d * bins + b];
        }
    p->x_min = low - bin_width * 0.5;
    p->x_max = low + bins * bin_width - bin_width * 0.5;
    p->y_min = 0;
    p->y_max = peak > 0 ? peak * 1.1 : 1;
    char x_label[64];
    if (bin_width == 1) snprintf(x_label, sizeof x_label, "score");
    else snprintf(x_label, sizeof x_label, "score (bins of %d)", bin_width);
    draw_axes(cr, p, "Score distribution per bot", x_label, "share of the bot's scores", true);

    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (int d = 0; d < stats->bot_count; d++) {
        if (totals[d] <= 0) continue;
        set_color(cr, palette[d], 0.18);
        cairo_move_to(cr, to_x(p, low), to_y(p, 0));
        for (int b = 0; b < bins; b++)
            cairo_line_to(cr, to_x(p, low + b * bin_width), to_y(p, share[d * bins + b]));
        cairo_line_to(cr, to_x(p, low + (bins - 1) * bin_width), to_y(p, 0));
        cairo_close_path(cr);
        cairo_fill(cr);
        set_color(cr, palette[d], 1);
        cairo_set_line_width(cr, 2);
        for (int b = 0; b < bins; b++) {
            double x = to_x(p, low + b * bin_width), y = to_y(p, share[d * bins + b]);
            if (b == 0) cairo_move_to(cr, x, y);
            else cairo_line_to(cr, x, y);
        }
        cairo_stroke(cr);
        /* The mean, dashed. */
        double dash[] = {5, 4};
        cairo_set_dash(cr, dash, 2, 0);
        cairo_set_line_width(cr, 1.5);
        double mean_x = to_x(p, stats->bots[d].score_mean);
        cairo_move_to(cr, mean_x, p->y);
        cairo_line_to(cr, mean_x, p->y + p->height);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    free(share);

    /* The legend, under the panel in two columns. */
    cairo_set_font_size(cr, 11);
    for (int d = 0; d < stats->bot_count; d++) {
        double y = p->y + p->height + 58 + (d / 2) * 17;
        double x = p->x + (d % 2) * p->width / 2;
        set_color(cr, palette[d], 1);
        cairo_rectangle(cr, x, y - 5, 14, 10);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        char label[160];
        snprintf(label, sizeof label, "%.40s  (mean %.1f)", stats->bots[d].spec,
                 stats->bots[d].score_mean);
        text_at(cr, x + 20, y, label, 0, 0.5);
    }
}

/* Labels under the slots of a bar chart: smaller type when they are wide,
 * then two staggered rows, then cut short. */
static void draw_labels(cairo_t *cr, const panel *p, int count, const char *const *labels)
{
    double slot = p->width / count;
    double size = 11;
    for (; size > 8; size -= 0.5) {
        cairo_set_font_size(cr, size);
        double widest = 0;
        for (int i = 0; i < count; i++) {
            cairo_text_extents_t extents;
            cairo_text_extents(cr, labels[i], &extents);
            if (extents.width > widest) widest = extents.width;
        }
        if (widest <= slot * 0.95) break;
    }
    cairo_set_font_size(cr, size);
    bool stagger = false;
    for (int i = 0; i < count; i++) {
        cairo_text_extents_t extents;
        cairo_text_extents(cr, labels[i], &extents);
        if (extents.width > slot * 0.95) stagger = true;
    }
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    for (int i = 0; i < count; i++) {
        char label[64];
        snprintf(label, sizeof label, "%s", labels[i]);
        double room = stagger ? slot * 1.9 : slot * 0.95;
        cairo_text_extents_t extents;
        cairo_text_extents(cr, label, &extents);
        for (size_t length = strlen(label); extents.width > room && length > 4; length--) {
            strcpy(label + length - 4, "...");
            cairo_text_extents(cr, label, &extents);
        }
        double y = p->y + p->height + 7 + (stagger && i % 2 ? size + 4 : 0);
        text_at(cr, p->x + slot * (i + 0.5), y, label, 0.5, 0);
    }
}

/* Bars with 95% intervals and a dashed line at the fair share. */
static void draw_shares(cairo_t *cr, panel *p, const char *title, int count,
                        const double *shares, const gateau_interval *intervals,
                        const char *const *labels, const rgb *colors, double fair)
{
    double top = fair;
    for (int i = 0; i < count; i++)
        if (intervals[i].high > top) top = intervals[i].high;
    p->x_min = 0;
    p->x_max = count;
    p->y_min = 0;
    p->y_max = fmin(1.12, top * 1.15 + 0.02); /* room for the value over a bar at 1 */
    draw_axes(cr, p, title, NULL, "win share", false);
    double slot = p->width / count;
    for (int i = 0; i < count; i++) {
        double x = p->x + slot * i + slot * 0.2, width = slot * 0.6;
        set_color(cr, colors[i], 0.85);
        cairo_rectangle(cr, x, to_y(p, shares[i]), width, to_y(p, 0) - to_y(p, shares[i]));
        cairo_fill(cr);
        /* The interval as an error bar. */
        double middle = x + width / 2;
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        cairo_set_line_width(cr, 1.5);
        cairo_move_to(cr, middle, to_y(p, intervals[i].low));
        cairo_line_to(cr, middle, to_y(p, intervals[i].high));
        cairo_move_to(cr, middle - 6, to_y(p, intervals[i].low));
        cairo_line_to(cr, middle + 6, to_y(p, intervals[i].low));
        cairo_move_to(cr, middle - 6, to_y(p, intervals[i].high));
        cairo_line_to(cr, middle + 6, to_y(p, intervals[i].high));
        cairo_stroke(cr);
        cairo_set_font_size(cr, 11);
        char value[32];
        snprintf(value, sizeof value, "%.3f", shares[i]);
        text_at(cr, middle, to_y(p, intervals[i].high) - 4, value, 0.5, 1);
    }
    draw_labels(cr, p, count, labels);
    double dash[] = {6, 4};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_set_source_rgb(cr, 0.75, 0.1, 0.1);
    cairo_set_line_width(cr, 1.2);
    cairo_move_to(cr, p->x, to_y(p, fair));
    cairo_line_to(cr, p->x + p->width, to_y(p, fair));
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    /* The fair share's label, on a white patch in the top left corner. */
    cairo_set_font_size(cr, 10);
    char fair_label[32];
    snprintf(fair_label, sizeof fair_label, "- - fair 1/%d", (int)lround(1 / fair));
    cairo_text_extents_t extents;
    cairo_text_extents(cr, fair_label, &extents);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
    cairo_rectangle(cr, p->x + 2, p->y + 2, extents.width + 8, extents.height + 6);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.75, 0.1, 0.1);
    text_at(cr, p->x + 6, p->y + 5, fair_label, 0, 0);
}

static void draw(cairo_t *cr, const char *title, const gateau_arena_stats *stats,
                 const gateau_arena_game *games, long count)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_set_font_size(cr, 17);
    text_at(cr, PLOT_WIDTH / 2.0, 14, title, 0.5, 0);

    panel scores = {.x = 80, .y = 70, .width = 540, .height = 380};
    draw_scores(cr, &scores, stats, games, count);

    double fair = 1.0 / stats->players;
    double shares[GATEAU_MAX_PLAYERS];
    gateau_interval intervals[GATEAU_MAX_PLAYERS];
    const char *labels[GATEAU_MAX_PLAYERS];
    char seat_names[GATEAU_MAX_PLAYERS][24];
    rgb seat_colors[GATEAU_MAX_PLAYERS];
    for (int d = 0; d < stats->bot_count; d++) {
        shares[d] = stats->bots[d].win_share;
        intervals[d] = stats->bots[d].win_interval;
        labels[d] = stats->bots[d].spec;
    }
    panel bots = {.x = 690, .y = 70, .width = 250, .height = 380};
    draw_shares(cr, &bots, "Win share per bot", stats->bot_count, shares, intervals, labels,
                palette, fair);
    for (int s = 0; s < stats->players; s++) {
        shares[s] = stats->seats[s].win_share;
        intervals[s] = stats->seats[s].win_interval;
        snprintf(seat_names[s], sizeof seat_names[s], "seat %d", s + 1);
        labels[s] = seat_names[s];
        seat_colors[s] = (rgb){0.45, 0.45, 0.5};
    }
    panel seats = {.x = 1000, .y = 70, .width = 180, .height = 380};
    draw_shares(cr, &seats, "Win share per seat", stats->players, shares, intervals, labels,
                seat_colors, fair);

    cairo_set_font_size(cr, 11);
    cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
    text_at(cr, PLOT_WIDTH / 2.0, PLOT_HEIGHT - 12,
            "Bars: win share (shared wins split); whiskers: 95% Wilson interval; "
            "dashed red: the fair share 1/N",
            0.5, 1);
}

int cli_plot(const char *path, const char *title, const gateau_arena_stats *stats,
             const gateau_arena_game *games, long count, char *error, size_t error_size)
{
    size_t length = strlen(path);
    bool svg = length > 4 && !strcasecmp(path + length - 4, ".svg");
    cairo_surface_t *surface =
        svg ? cairo_svg_surface_create(path, PLOT_WIDTH, PLOT_HEIGHT)
            : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, PLOT_WIDTH, PLOT_HEIGHT);
    cairo_status_t status = cairo_surface_status(surface);
    if (status == CAIRO_STATUS_SUCCESS) {
        cairo_t *cr = cairo_create(surface);
        draw(cr, title, stats, games, count);
        status = cairo_status(cr);
        cairo_destroy(cr);
    }
    if (status == CAIRO_STATUS_SUCCESS && !svg) status = cairo_surface_write_to_png(surface, path);
    cairo_surface_finish(surface);
    if (status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    /* Let go of cairo's caches (fonts) now: the command is about to end,
     * and leak checkers then see no memory still held. */
    cairo_debug_reset_static_data();
    if (status != CAIRO_STATUS_SUCCESS) {
        snprintf(error, error_size, "cannot write %s: %s", path, cairo_status_to_string(status));
        return -1;
    }
    return 0;
}
