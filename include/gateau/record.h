/*
 * record.h: games written down, read back, replayed and resumed.
 *
 * A record is the text format of ../shared/rules/README.md: header lines,
 * "---", then one move per line in the game's notation (chance moves
 * included), so a record replays to the same state with no generator.
 *
 * A gateau_record is also how tools play: it holds the setup, the moves so
 * far and the current state, and turns actions into move lines as moves
 * complete.
 */
#ifndef GATEAU_RECORD_H
#define GATEAU_RECORD_H

#include "gateau/api.h"

#include <stdio.h>

#include "gateau/gateau.h"

typedef struct gateau_record gateau_record;

/* A new game from its setup (the record keeps a reference: the setup must
 * outlive it). */
GATEAU_API gateau_record *gateau_record_new(const gateau_setup *setup);
GATEAU_API void gateau_record_free(gateau_record *record);

/*
 * Reads and replays a record.  base_dir resolves relative option paths.
 * On error returns NULL, writes the reason and sets *error_line to the
 * 1-based physical line (0 when no line is to blame).
 */
GATEAU_API gateau_record *gateau_record_read(const char *text, const char *base_dir,
                                  char *error, size_t error_size, int *error_line);
/* The same from a file ("-": standard input), at most
 * GATEAU_RECORD_MAX_BYTES; a directory, a binary or an overlong file is
 * refused with a one-line reason. */
#define GATEAU_RECORD_MAX_BYTES (16 * 1024 * 1024)
GATEAU_API gateau_record *gateau_record_read_file(const char *path, char *error,
                                       size_t error_size, int *error_line);

/* The record as text (malloc'd), or written to a file: 0 on success. */
GATEAU_API char *gateau_record_text(const gateau_record *record);
/*
 * The record as viewer (a seat, or GATEAU_OBSERVER) may read it (malloc'd):
 * the header without its comment (it may hold the seed), then one line per
 * move, the move itself where gateau_move_visible() lets viewer see it
 * when it was made, else "# seat 2 moved (hidden)" or "# chance (hidden)".
 * For people and logs; it does not replay.  A game's options are kept as
 * they are (a deck path among them).
 */
GATEAU_API char *gateau_record_text_for(const gateau_record *record, int viewer);
GATEAU_API int gateau_record_save(const gateau_record *record, const char *path,
                       char *error, size_t error_size);

GATEAU_API const gateau_setup *gateau_record_setup(const gateau_record *record);
GATEAU_API const gateau_state *gateau_record_state(const gateau_record *record);

/* Display names (seat order); defaults are "Seat 1" ...  A name is kept as
 * a record can hold it: commas, '#' and control characters become spaces,
 * the ends are trimmed, and a name left empty means the default. */
GATEAU_API void gateau_record_set_name(gateau_record *record, int seat, const char *name);
GATEAU_API const char *gateau_record_name(const gateau_record *record, int seat);

/* The header comment: the whole-line comments ("# ...") above `---`, one
 * line each, kept when a record is read and written first when it is
 * written.  Tools note there how a game was made (`gateau play` writes its
 * seats and seed, to resume from).  Control characters other than line
 * ends become spaces; NULL or "" sets none.  "" when there is none. */
GATEAU_API void gateau_record_set_comment(gateau_record *record, const char *comment);
GATEAU_API const char *gateau_record_comment(const gateau_record *record);

/*
 * Plays one action of seat (GATEAU_CHANCE for chance).  When it completes a
 * move, the move's line is added.  Illegal: false, reason, nothing changes.
 */
GATEAU_API bool gateau_record_play(gateau_record *record, int seat, gateau_action action,
                        char *error, size_t error_size);
/* Plays one whole move given in notation (no seat prefix). */
GATEAU_API bool gateau_record_play_move(gateau_record *record, int seat, const char *text,
                             char *error, size_t error_size);
/* Samples and plays one whole chance move. */
GATEAU_API void gateau_record_play_chance(gateau_record *record, gateau_rng *rng);

GATEAU_API int gateau_record_move_count(const gateau_record *record);
GATEAU_API const char *gateau_record_move_text(const gateau_record *record, int index);
/* The seat that made move index, or GATEAU_CHANCE. */
GATEAU_API int gateau_record_move_seat(const gateau_record *record, int index);

/* The actions of move index; *count receives how many. */
GATEAU_API const gateau_action *gateau_record_move_actions(const gateau_record *record, int index,
                                                int *count);

/* Goes back to the position after the first `count` moves (replaying them);
 * a half-finished move is dropped too. */
GATEAU_API void gateau_record_truncate(gateau_record *record, int count);

/*
 * Where the game stands, as `gateau replay --json` prints it (docs/arena.md,
 * "Report formats"): a malloc'd, NUL-terminated string holding one compact
 * JSON object on one line, with no newline at the end, as in
 * {"game":"piece-o-cake","players":3,"terminal":true,"scores":[33,38,39],
 * "winners":[3],"moves":21}; the caller frees it.
 */
GATEAU_API char *gateau_record_result_json(const gateau_record *record);

#endif
