/*
 * plot.c: `gateau arena --plot FILE`: the arena's results drawn with cairo,
 * as PNG or SVG by the file's extension.
 *
 * Left, the score distribution of each bot: the share of its scores in
 * each bin as a step histogram, and its mean score as a dashed line
 * labelled with the value.  The bins are as wide as the data need
 * (Freedman and Diaconis's rule on the bot that needs the widest), so the
 * shape shows rather than the noise of single values; when a game scores
 * in steps (most of Marie's Table's scores lie five points apart) the bins
 * hold whole steps, centred on them, so that the histogram is not a comb.
 * Right, two dot plots: the win share of each bot and of each seat, with
 * their 95% Wilson intervals and the fair share 1/N.  Every axis is fitted
 * to what it shows; the key sits above the histogram, and the mean labels
 * in a band kept free of data at its top.
 *
 * An SVG also carries a <title> and a <desc> stating the numbers drawn,
 * since cairo writes text as glyph outlines that neither a screen reader
 * nor a search (nor a test) can read.
 */
#include <cairo.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"

enum { PLOT_WIDTH = 1200, PLOT_HEIGHT = 540 };

/* Where the panels go: the plotting areas of both columns end at the same
 * height, above the tick labels, the axis titles and the footnote. */
enum {
    PANEL_TOP = 44,     /* the panels' titles */
    PLOT_BOTTOM = 463,  /* the bottom of every lowest plotting area */
    AXIS_BELOW = 40,    /* tick labels and the axis title under a plotting area */
    TITLE_ABOVE = 24,   /* a panel's title over its plotting area */
    PANEL_GAP = 14,     /* between the two dot plots */
    LEFT_X = 70,        /* the score panel's plotting area */
    LEFT_WIDTH = 600,
    RIGHT_X = 715,      /* the dot plots' column, labels included */
    RIGHT_END = 1182,
};

static const double PI = 3.14159265358979323846;

typedef struct rgb {
    double r, g, b;
} rgb;

/* A palette that stays apart for the colour-blind (Okabe and Ito). */
static const rgb palette[GATEAU_MAX_PLAYERS] = {
    {0.000, 0.447, 0.698}, {0.902, 0.624, 0.000}, {0.000, 0.620, 0.451},
    {0.800, 0.475, 0.655}, {0.337, 0.706, 0.914}, {0.835, 0.369, 0.000},
};
static const rgb ink = {0.1, 0.1, 0.1}, muted = {0.35, 0.35, 0.35},
                 grid = {0.9, 0.9, 0.9}, fair_red = {0.75, 0.1, 0.1},
                 seat_grey = {0.3, 0.3, 0.36};

typedef struct panel {
    double x, y, width, height; /* the plotting area, inside the axes */
    double x_min, x_max, y_min, y_max;
} panel;

/* ---- Drawing helpers --------------------------------------------------------------- */

static double to_x(const panel *p, double value)
{
    return p->x + (value - p->x_min) / (p->x_max - p->x_min) * p->width;
}

static double to_y(const panel *p, double value)
{
    return p->y + p->height - (value - p->y_min) / (p->y_max - p->y_min) * p->height;
}

/* A tick step of 1, 2 or 5 times a power of ten, near range / ticks. */
static double nice_step(double range, int ticks)
{
    if (!(range > 0)) return 1;
    double raw = range / ticks;
    double power = pow(10, floor(log10(raw)));
    double fraction = raw / power;
    double nice = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10;
    return nice * power;
}

static void set_color(cairo_t *cr, rgb color, double alpha)
{
    cairo_set_source_rgba(cr, color.r, color.g, color.b, alpha);
}

static double text_width(cairo_t *cr, const char *text)
{
    cairo_text_extents_t extents;
    cairo_text_extents(cr, text, &extents);
    return extents.x_advance;
}

/* Text placed by its box: align 0 puts (x, y) at the left (top) edge, 0.5
 * at the middle, 1 at the right (bottom). */
static void text_at(cairo_t *cr, double x, double y, const char *text, double align_x,
                    double align_y)
{
    cairo_text_extents_t extents;
    cairo_text_extents(cr, text, &extents);
    cairo_move_to(cr, x - extents.width * align_x - extents.x_bearing,
                  y - extents.height * align_y - extents.y_bearing);
    cairo_show_text(cr, text);
}

/* Cuts text (in place) with "..." until it is at most room wide. */
static void shorten(cairo_t *cr, char *text, double room)
{
    for (size_t length = strlen(text); text_width(cr, text) > room && length > 4; length--)
        strcpy(text + length - 4, "...");
}

static void number_label(double value, char *out, size_t size)
{
    snprintf(out, size, "%g", fabs(value) < 1e-12 ? 0.0 : value);
}

/* Grid lines across and labelled ticks on the left, for the values of the
 * vertical axis. */
static void draw_y_axis(cairo_t *cr, const panel *p, const char *label)
{
    double step = nice_step(p->y_max - p->y_min, 5);
    cairo_set_font_size(cr, 11);
    cairo_set_line_width(cr, 1);
    for (double v = ceil(p->y_min / step - 1e-9) * step; v <= p->y_max + 1e-9; v += step) {
        double y = to_y(p, v);
        set_color(cr, grid, 1);
        cairo_move_to(cr, p->x, y);
        cairo_line_to(cr, p->x + p->width, y);
        cairo_stroke(cr);
        char text[32];
        number_label(v, text, sizeof text);
        set_color(cr, muted, 1);
        text_at(cr, p->x - 6, y, text, 1, 0.5);
    }
    cairo_set_font_size(cr, 12);
    set_color(cr, ink, 1);
    cairo_save(cr);
    cairo_translate(cr, p->x - 46, p->y + p->height / 2);
    cairo_rotate(cr, -PI / 2);
    text_at(cr, 0, 0, label, 0.5, 0.5);
    cairo_restore(cr);
}

/* Labelled ticks under the plotting area, with grid lines up through it
 * when asked; whole numbers only when the values are. */
static void draw_x_axis(cairo_t *cr, const panel *p, const char *label, int ticks,
                        bool whole, bool grid_lines)
{
    double step = nice_step(p->x_max - p->x_min, ticks);
    if (whole && step < 1) step = 1;
    cairo_set_font_size(cr, 11);
    cairo_set_line_width(cr, 1);
    for (double v = ceil(p->x_min / step - 1e-9) * step; v <= p->x_max + 1e-9; v += step) {
        double x = to_x(p, v);
        if (grid_lines) {
            set_color(cr, grid, 1);
            cairo_move_to(cr, x, p->y);
            cairo_line_to(cr, x, p->y + p->height);
            cairo_stroke(cr);
        }
        set_color(cr, muted, 1);
        cairo_move_to(cr, x, p->y + p->height);
        cairo_line_to(cr, x, p->y + p->height + 4);
        cairo_stroke(cr);
        char text[32];
        number_label(v, text, sizeof text);
        text_at(cr, x, p->y + p->height + 7, text, 0.5, 0);
    }
    cairo_set_font_size(cr, 12);
    set_color(cr, ink, 1);
    text_at(cr, p->x + p->width / 2, p->y + p->height + 24, label, 0.5, 0);
}

static void draw_frame(cairo_t *cr, const panel *p)
{
    set_color(cr, muted, 1);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, p->x, p->y, p->width, p->height);
    cairo_stroke(cr);
}

/* A panel's title, centred over its plotting area, which begins at top. */
static void draw_panel_title(cairo_t *cr, double x, double width, double top, const char *title)
{
    cairo_set_font_size(cr, 14);
    set_color(cr, ink, 1);
    text_at(cr, x + width / 2, top - TITLE_ABOVE, title, 0.5, 0);
}

/* ---- Score bins ------------------------------------------------------------------- */

typedef struct score_bins {
    int low, high;     /* the lowest and the highest score of any bot */
    int step;          /* the scores' step: 1, or the spacing most of them keep */
    int width;         /* points per bin, a multiple of step */
    double first_edge; /* bin b holds the scores in [first_edge + b width, + width) */
    int count;         /* bins; 0 when there are no scores */
    long totals[GATEAU_MAX_PLAYERS]; /* scores per bot */
    double *share;     /* share[d * count + b]: bot d's share of its scores in bin b */
    double peak;       /* the highest share */
} score_bins;

/* The score of nearest rank q n among a bot's n scores, from its counts of
 * each value (values[v]: how often low + v). */
static int quantile(const long *values, int range, int low, long n, double q)
{
    long rank = (long)ceil(q * (double)n);
    if (rank < 1) rank = 1;
    long seen = 0;
    for (int v = 0; v < range; v++) {
        seen += values[v];
        if (seen >= rank) return low + v;
    }
    return low + range - 1;
}

/* Freedman and Diaconis's bin width, 2 IQR / cbrt(n): narrow enough to
 * keep the shape, wide enough that a bin's share is not mostly noise.
 * Scott's 3.49 sd / cbrt(n) when the middle half is a single value. */
static double freedman_diaconis(const long *values, int range, int low, long n, double sd)
{
    if (n < 2) return 0;
    int iqr = quantile(values, range, low, n, 0.75) - quantile(values, range, low, n, 0.25);
    return (iqr > 0 ? 2 * iqr : 3.49 * sd) / cbrt((double)n);
}

/* The spacing the scores keep, if any: the largest step from 2 to 10 such
 * that 85% of all scores lie on one residue class modulo it (at three
 * values at least); 1 when none does.  *residue receives the class. */
static int score_step(const long *pooled, int range, int low, long n, int *residue)
{
    *residue = 0;
    if (n < 30) return 1;
    for (int step = 10; step >= 2; step--) {
        if (step * 3 > range) continue;
        for (int r = 0; r < step; r++) {
            long on = 0;
            int values = 0;
            for (int v = 0; v < range; v++)
                if (((low + v) % step + step) % step == r && pooled[v] > 0) {
                    on += pooled[v];
                    values++;
                }
            if (values >= 3 && (double)on >= 0.85 * (double)n) {
                *residue = r;
                return step;
            }
        }
    }
    return 1;
}

/* Bins the scores of every bot (bins->share is malloc'd; 0 bins without
 * scores). */
static void bin_scores(const gateau_arena_stats *stats, const gateau_arena_game *games,
                       long count, score_bins *bins)
{
    memset(bins, 0, sizeof *bins);
    int bots = stats->bot_count;
    if (count <= 0 || bots <= 0) return;
    bins->low = stats->bots[0].score_min;
    bins->high = stats->bots[0].score_max;
    for (int d = 1; d < bots; d++) {
        if (stats->bots[d].score_min < bins->low) bins->low = stats->bots[d].score_min;
        if (stats->bots[d].score_max > bins->high) bins->high = stats->bots[d].score_max;
    }
    int low = bins->low, range = bins->high - low + 1;
    /* How often each bot scored each value, then all bots pooled. */
    long *values = calloc((size_t)range * (size_t)(bots + 1), sizeof *values);
    if (!values) abort();
    long *pooled = values + (size_t)range * (size_t)bots;
    for (long g = 0; g < count; g++)
        for (int s = 0; s < stats->players; s++) {
            int listed = games[g].bot_at_seat[s];
            int v = games[g].scores[s] - low;
            if (listed < 0 || listed >= stats->players || v < 0 || v >= range) continue;
            int d = stats->bot_of_listed[listed];
            values[(size_t)d * (size_t)range + (size_t)v]++;
            pooled[v]++;
            bins->totals[d]++;
        }
    long all = 0;
    double wanted = 0;
    for (int d = 0; d < bots; d++) {
        all += bins->totals[d];
        double width = freedman_diaconis(values + (size_t)d * (size_t)range, range, low,
                                         bins->totals[d], stats->bots[d].score_sd);
        if (width > wanted) wanted = width;
    }
    /* Whole points per bin, from about 6 to 50 bins over the range, and
     * whole steps of the scores' spacing. */
    int width = (int)lround(wanted);
    if (width > range / 6) width = range / 6;
    if (width < (range + 49) / 50) width = (range + 49) / 50;
    if (width < 1) width = 1;
    int residue;
    bins->step = score_step(pooled, range, low, all, &residue);
    if (bins->step > 1) {
        long steps = lround((double)width / bins->step);
        width = bins->step * (int)(steps < 1 ? 1 : steps);
    }
    bins->width = width;
    /* Edges half a point off the scores, so that a bin holds `width` whole
     * values; with a step, the scores on it lie symmetrically in each bin
     * (one in the middle when the bins are one step wide). */
    double base = residue - bins->step / 2 - 0.5;
    bins->first_edge = base + floor((low - base) / width) * width;
    bins->count = (int)floor((bins->high - bins->first_edge) / width) + 1;
    bins->share = calloc((size_t)bins->count * (size_t)bots, sizeof *bins->share);
    if (!bins->share) abort();
    for (int d = 0; d < bots; d++)
        for (int v = 0; v < range; v++) {
            long seen = values[(size_t)d * (size_t)range + (size_t)v];
            if (!seen) continue;
            int b = (int)floor((low + v - bins->first_edge) / width);
            bins->share[d * bins->count + b] += (double)seen / (double)bins->totals[d];
        }
    for (int i = 0; i < bots * bins->count; i++)
        if (bins->share[i] > bins->peak) bins->peak = bins->share[i];
    free(values);
}

/* ---- The score panel ----------------------------------------------------------------- */

/* A mean score's label, in one of the rows of the band at the top of the
 * score panel. */
typedef struct mean_label {
    char text[32];
    double x, left, right; /* the mean's x; the label's extent */
    int row;
} mean_label;

enum { LABEL_ROW = 15 }; /* the height of a row of mean labels */

/* Puts each label in the first row, from the top, where it overlaps no
 * label already placed; returns the rows used. */
static int place_mean_labels(cairo_t *cr, const panel *p, mean_label *labels, int count)
{
    int order[GATEAU_MAX_PLAYERS];
    for (int i = 0; i < count; i++) order[i] = i;
    for (int i = 1; i < count; i++) /* by x, an insertion sort of at most 6 */
        for (int k = i; k > 0 && labels[order[k]].x < labels[order[k - 1]].x; k--) {
            int swap = order[k];
            order[k] = order[k - 1];
            order[k - 1] = swap;
        }
    cairo_set_font_size(cr, 11);
    double row_end[GATEAU_MAX_PLAYERS];
    int rows = 0;
    for (int i = 0; i < count; i++) {
        mean_label *label = &labels[order[i]];
        double half = text_width(cr, label->text) / 2 + 3;
        double middle = fmin(fmax(label->x, p->x + half + 1), p->x + p->width - half - 1);
        label->left = middle - half;
        label->right = middle + half;
        int row = 0;
        while (row < rows && row_end[row] + 4 > label->left) row++;
        if (row == rows) rows++;
        row_end[row] = label->right;
        label->row = row;
    }
    return rows;
}

/* The key above the histogram: a swatch and a name per bot, then what the
 * dashed lines are, in rows that wrap at the panel's width; returns the
 * height used (draws only when draw is set). */
static double draw_key(cairo_t *cr, const gateau_arena_stats *stats, double x, double y,
                       double width, bool draw)
{
    enum { KEY_ROW = 17 };
    cairo_set_font_size(cr, 11);
    double at = x, row_y = y;
    for (int d = 0; d <= stats->bot_count; d++) {
        bool mean_item = d == stats->bot_count;
        char text[64];
        snprintf(text, sizeof text, "%s", mean_item ? "mean score" : stats->bots[d].spec);
        shorten(cr, text, width / 2);
        double item = 22 + text_width(cr, text);
        if (at > x && at + item > x + width) {
            at = x;
            row_y += KEY_ROW;
        }
        if (draw) {
            set_color(cr, mean_item ? muted : palette[d], 1);
            cairo_set_line_width(cr, mean_item ? 1.5 : 3);
            double dash[] = {4, 3};
            if (mean_item) cairo_set_dash(cr, dash, 2, 0);
            cairo_move_to(cr, at, row_y + 6);
            cairo_line_to(cr, at + 16, row_y + 6);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
            set_color(cr, ink, 1);
            text_at(cr, at + 21, row_y + 6, text, 0, 0.5);
        }
        at += item + 16;
    }
    return row_y + KEY_ROW - y;
}

/* The score histogram of each bot and its labelled mean; p's plotting
 * area and ranges are set here (the key above it takes what it needs).
 * labels receives the mean labels, one per bot. */
static void draw_scores(cairo_t *cr, panel *p, const gateau_arena_stats *stats,
                        const score_bins *bins, mean_label *labels)
{
    int bots = stats->bot_count;
    draw_panel_title(cr, LEFT_X, LEFT_WIDTH, PANEL_TOP + TITLE_ABOVE,
                     "Score distribution per bot");
    double key_top = PANEL_TOP + TITLE_ABOVE;
    double key_height = draw_key(cr, stats, LEFT_X, key_top, LEFT_WIDTH, true);
    p->x = LEFT_X;
    p->width = LEFT_WIDTH;
    p->y = key_top + key_height + 4;
    p->height = PLOT_BOTTOM - p->y;
    if (bins->count == 0) {
        *p = (panel){p->x, p->y, p->width, p->height, 0, 1, 0, 1};
        draw_x_axis(cr, p, "score", 8, true, true);
        draw_y_axis(cr, p, "share of the bot's scores");
        draw_frame(cr, p);
        cairo_set_font_size(cr, 12);
        set_color(cr, muted, 1);
        text_at(cr, p->x + p->width / 2, p->y + p->height / 2, "no finished games", 0.5, 0.5);
        return;
    }
    /* x: the bins, and a little room so that the outer steps clear the
     * frame. */
    double span = (double)bins->count * bins->width;
    p->x_min = bins->first_edge - span * 0.015;
    p->x_max = bins->first_edge + span * 1.015;
    for (int d = 0; d < bots; d++) {
        snprintf(labels[d].text, sizeof labels[d].text, "%.1f", stats->bots[d].score_mean);
        labels[d].x = to_x(p, stats->bots[d].score_mean);
    }
    int rows = place_mean_labels(cr, p, labels, bots);
    /* y: from 0 to a little over the highest bin, with the label band
     * above it. */
    double band = rows * LABEL_ROW + 6;
    p->y_min = 0;
    p->y_max = bins->peak > 0 ? bins->peak * p->height / (p->height - band - 6) : 1;

    char x_label[96];
    if (bins->width == 1) snprintf(x_label, sizeof x_label, "score");
    else if (bins->step == 1)
        snprintf(x_label, sizeof x_label, "score, in bins of %d points", bins->width);
    else
        snprintf(x_label, sizeof x_label, "score, in bins of %d points (most scores lie %d apart)",
                 bins->width, bins->step);
    draw_y_axis(cr, p, "share of the bot's scores");
    draw_x_axis(cr, p, x_label, 8, true, false);

    /* Each bot's histogram, as steps over the bins from its first to its
     * last score: a light fill, then the outline. */
    cairo_save(cr);
    cairo_rectangle(cr, p->x, p->y, p->width, p->height);
    cairo_clip(cr);
    for (int pass = 0; pass < 2; pass++)
        for (int d = 0; d < bots; d++) {
            const double *share = bins->share + d * bins->count;
            int first = 0, last = bins->count - 1;
            while (first < last && share[first] == 0) first++;
            while (last > first && share[last] == 0) last--;
            double edge = bins->first_edge + first * bins->width;
            cairo_move_to(cr, to_x(p, edge), to_y(p, 0));
            for (int b = first; b <= last; b++, edge += bins->width) {
                cairo_line_to(cr, to_x(p, edge), to_y(p, share[b]));
                cairo_line_to(cr, to_x(p, edge + bins->width), to_y(p, share[b]));
            }
            cairo_line_to(cr, to_x(p, edge), to_y(p, 0));
            if (pass == 0) {
                set_color(cr, palette[d], 0.16);
                cairo_fill(cr);
            } else {
                set_color(cr, palette[d], 1);
                cairo_set_line_width(cr, 1.8);
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
                cairo_stroke(cr);
            }
        }
    cairo_restore(cr);

    /* The means: dashed lines up to their labels, which sit on white so a
     * line passing behind a label in a lower row does not cross its text. */
    double dash[] = {5, 3};
    for (int d = 0; d < bots; d++) {
        double top = p->y + 3 + labels[d].row * LABEL_ROW + LABEL_ROW - 2;
        set_color(cr, palette[d], 1);
        cairo_set_line_width(cr, 1.5);
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, labels[d].x, to_y(p, 0));
        cairo_line_to(cr, labels[d].x, top);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    cairo_set_font_size(cr, 11);
    for (int d = 0; d < bots; d++) {
        double top = p->y + 3 + labels[d].row * LABEL_ROW;
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_rectangle(cr, labels[d].left, top, labels[d].right - labels[d].left,
                        LABEL_ROW - 2);
        cairo_fill(cr);
        set_color(cr, palette[d], 1);
        text_at(cr, (labels[d].left + labels[d].right) / 2, top + (LABEL_ROW - 2) / 2.0,
                labels[d].text, 0.5, 0.5);
    }
    draw_frame(cr, p);
}

/* ---- The win shares ---------------------------------------------------------------- */

typedef struct share_row {
    char label[64];
    double share;
    gateau_interval interval;
    rgb color;
} share_row;

/* The x range of a dot plot: every interval and the fair share, and room
 * at the sides for the dots and their values. */
static void fit_shares(panel *p, const share_row *rows, int count, double fair)
{
    double low = fair, high = fair;
    for (int i = 0; i < count; i++) {
        low = fmin(low, rows[i].interval.low);
        high = fmax(high, rows[i].interval.high);
    }
    if (high - low < 0.02) {
        double middle = (low + high) / 2;
        low = middle - 0.01;
        high = middle + 0.01;
    }
    double pad = (high - low) * 0.07;
    p->x_min = low - pad;
    p->x_max = high + pad;
    p->y_min = 0;
    p->y_max = count;
}

/* A Cleveland dot plot: one row per bot or seat, its label at the left,
 * its win share as a dot with the value above it, its 95% interval as a
 * line with caps; a dashed red line at the fair share. */
static void draw_shares(cairo_t *cr, panel *p, const char *title, const share_row *rows,
                        int count, double fair, long games)
{
    fit_shares(p, rows, count, fair);
    draw_panel_title(cr, p->x, p->width, p->y, title);
    char x_label[64];
    snprintf(x_label, sizeof x_label, "win share (dashed: fair share 1/%d)",
             (int)lround(1 / fair));
    draw_x_axis(cr, p, x_label, 5, false, true);
    double row_height = p->height / count;
    cairo_set_font_size(cr, 11);
    for (int i = 0; i < count; i++) {
        double y = p->y + row_height * (i + 0.5);
        char label[64];
        snprintf(label, sizeof label, "%s", rows[i].label);
        shorten(cr, label, p->x - RIGHT_X - 10);
        set_color(cr, ink, 1);
        text_at(cr, p->x - 8, y, label, 1, 0.5);
        set_color(cr, grid, 1);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, p->x, y);
        cairo_line_to(cr, p->x + p->width, y);
        cairo_stroke(cr);
    }
    double dash[] = {6, 4};
    set_color(cr, fair_red, 1);
    cairo_set_line_width(cr, 1.2);
    cairo_set_dash(cr, dash, 2, 0);
    cairo_move_to(cr, to_x(p, fair), p->y);
    cairo_line_to(cr, to_x(p, fair), p->y + p->height);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    for (int i = 0; i < count && games > 0; i++) { /* (no games: nothing measured) */
        double y = p->y + row_height * (i + 0.5);
        double low = to_x(p, rows[i].interval.low), high = to_x(p, rows[i].interval.high);
        double x = to_x(p, rows[i].share);
        double cap = fmin(5, row_height / 4);
        set_color(cr, rows[i].color, 1);
        cairo_set_line_width(cr, 1.8);
        cairo_move_to(cr, low, y);
        cairo_line_to(cr, high, y);
        cairo_move_to(cr, low, y - cap);
        cairo_line_to(cr, low, y + cap);
        cairo_move_to(cr, high, y - cap);
        cairo_line_to(cr, high, y + cap);
        cairo_stroke(cr);
        cairo_arc(cr, x, y, 4.5, 0, 2 * PI);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
        char value[32];
        snprintf(value, sizeof value, "%.3f", rows[i].share);
        cairo_set_font_size(cr, 10);
        double half = text_width(cr, value) / 2;
        double middle = fmin(fmax(x, p->x + half + 2), p->x + p->width - half - 2);
        /* On white, so that the fair line or a grid line does not cross it. */
        cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
        cairo_rectangle(cr, middle - half - 1, y - 19, 2 * half + 2, 12);
        cairo_fill(cr);
        set_color(cr, ink, 1);
        text_at(cr, middle, y - 8, value, 0.5, 1);
    }
    draw_frame(cr, p);
}

/* ---- The figure ---------------------------------------------------------------------- */

/* What was drawn, for the SVG's description. */
typedef struct figure {
    panel scores, bots, seats;
    score_bins bins;
    mean_label means[GATEAU_MAX_PLAYERS];
    share_row bot_rows[GATEAU_MAX_PLAYERS], seat_rows[GATEAU_MAX_PLAYERS];
} figure;

/* The width of the dot plots' label column: the widest label, within
 * limits. */
static double label_column(cairo_t *cr, const figure *f, const gateau_arena_stats *stats)
{
    cairo_set_font_size(cr, 11);
    double widest = 40;
    for (int d = 0; d < stats->bot_count; d++)
        widest = fmax(widest, text_width(cr, f->bot_rows[d].label));
    for (int s = 0; s < stats->players; s++)
        widest = fmax(widest, text_width(cr, f->seat_rows[s].label));
    return fmin(widest, 150) + 10;
}

static void draw(cairo_t *cr, const char *title, const gateau_arena_stats *stats,
                 const gateau_arena_game *games, long count, figure *f)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    set_color(cr, ink, 1);
    cairo_set_font_size(cr, 17);
    text_at(cr, PLOT_WIDTH / 2.0, 12, title, 0.5, 0);

    bin_scores(stats, games, count, &f->bins);
    draw_scores(cr, &f->scores, stats, &f->bins, f->means);

    for (int d = 0; d < stats->bot_count; d++) {
        share_row *row = &f->bot_rows[d];
        snprintf(row->label, sizeof row->label, "%s", stats->bots[d].spec);
        row->share = stats->bots[d].win_share;
        row->interval = stats->bots[d].win_interval;
        row->color = palette[d];
    }
    for (int s = 0; s < stats->players; s++) {
        share_row *row = &f->seat_rows[s];
        snprintf(row->label, sizeof row->label, "seat %d", s + 1);
        row->share = stats->seats[s].win_share;
        row->interval = stats->seats[s].win_interval;
        row->color = seat_grey;
    }
    /* The two dot plots share the column's height by their rows. */
    double x = RIGHT_X + label_column(cr, f, stats);
    double rows_height = PLOT_BOTTOM - PANEL_TOP - 2 * TITLE_ABOVE - AXIS_BELOW - PANEL_GAP;
    double bots_height = rows_height * stats->bot_count / (stats->bot_count + stats->players);
    f->bots = (panel){.x = x, .y = PANEL_TOP + TITLE_ABOVE, .width = RIGHT_END - x,
                      .height = bots_height};
    double fair = 1.0 / stats->players;
    draw_shares(cr, &f->bots, "Win share per bot", f->bot_rows, stats->bot_count, fair,
                stats->games);
    double seats_y = f->bots.y + bots_height + AXIS_BELOW + PANEL_GAP + TITLE_ABOVE;
    f->seats = (panel){.x = x, .y = seats_y, .width = RIGHT_END - x,
                       .height = PLOT_BOTTOM - seats_y};
    draw_shares(cr, &f->seats, "Win share per seat", f->seat_rows, stats->players, fair,
                stats->games);

    cairo_set_font_size(cr, 10.5);
    set_color(cr, muted, 1);
    text_at(cr, PLOT_WIDTH / 2.0, PLOT_HEIGHT - 8,
            "Scores: each bot's share of its scores per bin, over every seat it held. "
            "Win shares: dots, with 95% Wilson intervals; a win shared by k counts 1/k.",
            0.5, 1);
}

/* ---- Files ----------------------------------------------------------------------------- */

/* A growing string. */
typedef struct text_buffer {
    char *data;
    size_t length, capacity;
} text_buffer;

static void append_bytes(text_buffer *buffer, const char *bytes, size_t length)
{
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->length + length + 1) capacity *= 2;
        char *data = realloc(buffer->data, capacity);
        if (!data) abort();
        buffer->data = data;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, length);
    buffer->length += length;
    buffer->data[buffer->length] = '\0';
}

static void append(text_buffer *buffer, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void append(text_buffer *buffer, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char small[512];
    int needed = vsnprintf(small, sizeof small, format, args);
    va_end(args);
    if (needed < 0) abort();
    if ((size_t)needed < sizeof small) {
        append_bytes(buffer, small, (size_t)needed);
        return;
    }
    char *large = malloc((size_t)needed + 1);
    if (!large) abort();
    va_start(args, format);
    vsnprintf(large, (size_t)needed + 1, format, args);
    va_end(args);
    append_bytes(buffer, large, (size_t)needed);
    free(large);
}

/* Text as XML character data. */
static void append_escaped(text_buffer *buffer, const char *text)
{
    for (; *text; text++) {
        if (*text == '<') append(buffer, "&lt;");
        else if (*text == '>') append(buffer, "&gt;");
        else if (*text == '&') append(buffer, "&amp;");
        else append_bytes(buffer, text, 1);
    }
}

static void describe_shares(text_buffer *out, const char *what, const panel *p,
                            const share_row *rows, int count, double fair)
{
    append(out, "%s with 95%% Wilson intervals, fair share %g, win share axis from %g to %g:",
           what, fair, p->x_min, p->x_max);
    for (int i = 0; i < count; i++)
        append(out, "%s %s %.3f [%.3f, %.3f]", i ? ";" : "", rows[i].label, rows[i].share,
               rows[i].interval.low, rows[i].interval.high);
    append(out, ".\n");
}

/* The numbers the figure shows, in words, for the SVG's <desc>. */
static void describe(text_buffer *out, const figure *f, const gateau_arena_stats *stats)
{
    const panel *p = &f->scores;
    if (f->bins.count > 0) {
        append(out, "Score distribution per bot: share of each bot's scores per bin of %d point%s",
               f->bins.width, f->bins.width == 1 ? "" : "s");
        if (f->bins.step > 1) append(out, " (most scores lie %d apart)", f->bins.step);
        append(out, "; score axis from %g to %g; share axis from 0 to %g.\n", p->x_min, p->x_max,
               p->y_max);
        append(out, "Mean score (dashed lines, labelled):");
        for (int d = 0; d < stats->bot_count; d++)
            append(out, "%s %s %s", d ? ";" : "", stats->bots[d].spec, f->means[d].text);
        append(out, ".\n");
    } else {
        append(out, "Score distribution per bot: no finished games.\n");
    }
    if (stats->games == 0) return;
    double fair = 1.0 / stats->players;
    describe_shares(out, "Win share per bot", &f->bots, f->bot_rows, stats->bot_count, fair);
    describe_shares(out, "Win share per seat", &f->seats, f->seat_rows, stats->players, fair);
}

static cairo_status_t collect(void *closure, const unsigned char *data, unsigned int length)
{
    append_bytes(closure, (const char *)data, length);
    return CAIRO_STATUS_SUCCESS;
}

/* Writes cairo's SVG with a <title> and a <desc> after the opening <svg>
 * tag. */
static bool write_svg(const char *path, const text_buffer *svg, const char *title,
                      const text_buffer *description, char *error, size_t error_size)
{
    const char *root = svg->data ? strstr(svg->data, "<svg") : NULL;
    const char *end = root ? strchr(root, '>') : NULL;
    if (!end) {
        snprintf(error, error_size, "cannot write %s: cairo made no SVG", path);
        return false;
    }
    text_buffer out = {0};
    append_bytes(&out, svg->data, (size_t)(end + 1 - svg->data));
    append(&out, "\n<title>");
    append_escaped(&out, title);
    append(&out, "</title>\n<desc>");
    append_escaped(&out, description->data);
    append(&out, "</desc>");
    append(&out, "%s", end + 1);
    FILE *file = fopen(path, "w");
    bool ok = file && fwrite(out.data, 1, out.length, file) == out.length;
    if (file && fclose(file) != 0) ok = false;
    if (!ok) snprintf(error, error_size, "cannot write %s: %s", path, strerror(errno));
    free(out.data);
    return ok;
}

int cli_plot(const char *path, const char *title, const gateau_arena_stats *stats,
             const gateau_arena_game *games, long count, char *error, size_t error_size)
{
    size_t length = strlen(path);
    bool svg = length > 4 && !strcasecmp(path + length - 4, ".svg");
    text_buffer svg_text = {0};
    cairo_surface_t *surface =
        svg ? cairo_svg_surface_create_for_stream(collect, &svg_text, PLOT_WIDTH, PLOT_HEIGHT)
            : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, PLOT_WIDTH, PLOT_HEIGHT);
    figure f = {0};
    cairo_status_t status = cairo_surface_status(surface);
    if (status == CAIRO_STATUS_SUCCESS) {
        cairo_t *cr = cairo_create(surface);
        draw(cr, title, stats, games, count, &f);
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
    bool ok = status == CAIRO_STATUS_SUCCESS;
    if (!ok)
        snprintf(error, error_size, "cannot write %s: %s", path, cairo_status_to_string(status));
    if (ok && svg) {
        text_buffer description = {0};
        describe(&description, &f, stats);
        ok = write_svg(path, &svg_text, title, &description, error, error_size);
        free(description.data);
    }
    free(svg_text.data);
    free(f.bins.share);
    return ok ? 0 : -1;
}
