/*
 * The solver's search core: the depth-first and best-first searches of this package, node for
 * node as the Python modules do them, many times faster. No Python here: core.py loads the
 * compiled library through ctypes, and the Python searches stay the reference
 * (YUKON_SOLVER_CORE=python).
 *
 * Sections follow the Python modules: board, moves and safe moves (board.py), keys, rating
 * (rating.py), deadlock (blocks.py), seen-table, depth-first (depth_first.py), best-first
 * (best_first.py), and last the functions core.py calls.
 *
 * Cards are numbered as in games/engine/cards.py: suit * 13 + rank - 1, suits ♠ ♥ ♦ ♣ = 0 … 3.
 * Columns are 0 … 6 and FOUNDATION is 7, as in games/engine/move.py.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define INTERFACE_VERSION 6 /* core.py refuses a library built from another version */

enum {
    DECK_SIZE = 52,
    SUIT_COUNT = 4,
    KING = 13,
    COLUMN_COUNT = 7,
    FOUNDATION = 7,
    MAX_GROUP = 20,        /* games/engine/game.py */
    COLUMN_CAPACITY = 64,  /* byte 0: the face-down count; then at most 52 cards */
    KEY_CAPACITY = 72,     /* 52 cards, 7 face-down counts, 6 separators */
    MOVE_CAPACITY = 64,    /* moves of one tier: at most 7 × 5 + 4 */
    RECORD_CAPACITY = 64,  /* a move and the safe moves it opens: at most 1 + 52 */
};

#define SEPARATOR 0xff /* between columns in a key: no card or face-down count is 255 */
#define F_CODE 255     /* best-first steps: the move went to its foundation */
#define EMPTY_CODE 254 /* best-first steps: the move went to an empty column */

enum { RUNNING = 0, WON = 1, EXHAUSTED = 2, OUT_OF_MEMORY = 3 };

#define RANKS 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
#define THIRTEEN(x) x, x, x, x, x, x, x, x, x, x, x, x, x
static const uint8_t RANK[DECK_SIZE] = {RANKS, RANKS, RANKS, RANKS};
static const uint8_t SUIT[DECK_SIZE] = {THIRTEEN(0), THIRTEEN(1), THIRTEEN(2), THIRTEEN(3)};
static const uint8_t RED[DECK_SIZE] = {THIRTEEN(0), THIRTEEN(1), THIRTEEN(1), THIRTEEN(0)};

static inline int rank_of(int card) { return RANK[card]; }
static inline int suit_of(int card) { return SUIT[card]; }
static inline bool is_red(int card) { return RED[card]; }
static inline int min_int(int a, int b) { return a < b ? a : b; }

/* `above` may be placed onto `below` (RuleTables.natural). */
static inline bool fits_on(bool classic, int above, int below) {
    return rank_of(above) == rank_of(below) - 1 && (!classic || is_red(above) != is_red(below));
}

/* RuleTables.fits: the cards that may be placed onto `top`, in card order. */
static int cards_fitting(bool classic, int top, int out[SUIT_COUNT]) {
    int count = 0, rank = rank_of(top);
    if (rank == 1) return 0;
    for (int suit = 0; suit < SUIT_COUNT; suit++) {
        int card = suit * 13 + rank - 2;
        if (!classic || is_red(card) != is_red(top)) out[count++] = card;
    }
    return count;
}

/* blocks.PARENTS: the cards that `card` may be placed onto, in card order. */
static int cards_below(bool classic, int card, int out[SUIT_COUNT]) {
    int count = 0, rank = rank_of(card);
    if (rank == KING) return 0;
    for (int suit = 0; suit < SUIT_COUNT; suit++) {
        int top = suit * 13 + rank;
        if (!classic || is_red(card) != is_red(top)) out[count++] = top;
    }
    return count;
}

/* cards_below for both rule sets, once: [classic][card]. */
static int PARENTS[2][DECK_SIZE][SUIT_COUNT], PARENT_COUNT[2][DECK_SIZE];

static void parents_init(void) {
    static bool done = false;
    if (done) return;
    for (int classic = 0; classic < 2; classic++)
        for (int card = 0; card < DECK_SIZE; card++)
            PARENT_COUNT[classic][card] = cards_below(classic, card, PARENTS[classic][card]);
    done = true;
}

/* A growable array: make room for `needed` items; false when memory is out (the array stays). */
#define RESERVE(items, capacity, needed)                                                    \
    ((size_t)(needed) <= (capacity) ||                                                      \
     ((items) = grow_array((items), &(capacity), (size_t)(needed), sizeof *(items)),        \
      (size_t)(needed) <= (capacity)))

static void *grow_array(void *items, size_t *capacity, size_t needed, size_t item_size) {
    size_t grown = *capacity ? *capacity : 256;
    while (grown < needed) grown *= 2;
    void *moved = realloc(items, grown * item_size);
    if (!moved) return items;
    *capacity = grown;
    return moved;
}

/* ------------------------------------------------------------------------------- board */

/* Each column is kept as its own key (face-down count, then the cards bottom to top), so a
 * position's key is seven copies, and a column's score reads the same bytes. */
typedef struct {
    uint8_t column[COLUMN_COUNT][COLUMN_CAPACITY];
    uint8_t length[COLUMN_COUNT]; /* cards in each column */
    uint8_t found[SUIT_COUNT];    /* cards on each foundation */
    uint8_t loc[DECK_SIZE];       /* a column, or FOUNDATION */
    uint8_t index[DECK_SIZE];     /* a card's place in its column */
    bool classic;
    bool eager; /* Board.eager: every foundation move is played at once (streamlined searches) */
} Board;

#define DOWN(board, c) ((board)->column[c][0])
#define CARDS(board, c) ((board)->column[c] + 1)

/* What `unplay` needs: board.Record. */
typedef struct {
    uint8_t card, source, dest, start, flipped;
} Record;

/* core.py reads records as five bytes each: no padding (C99 has no static assertion). */
typedef char record_is_five_bytes[sizeof(Record) == 5 ? 1 : -1];

static inline int top_card(const Board *b, int c) { return CARDS(b, c)[b->length[c] - 1]; }
static inline int found_total(const Board *b) {
    return b->found[0] + b->found[1] + b->found[2] + b->found[3];
}
static inline bool is_won(const Board *b) { return found_total(b) == DECK_SIZE; }
/* The card is the next one its foundation takes. */
static inline bool goes_up(const Board *b, int card) {
    return b->found[suit_of(card)] == rank_of(card) - 1;
}

static void append_cards(Board *b, int c, const uint8_t *cards, int count) {
    uint8_t *column = CARDS(b, c);
    for (int k = 0; k < count; k++) {
        int card = cards[k], at = b->length[c] + k;
        column[at] = (uint8_t)card;
        b->loc[card] = (uint8_t)c;
        b->index[card] = (uint8_t)at;
    }
    b->length[c] = (uint8_t)(b->length[c] + count);
}

/* The cards of column `from` from `position` up go on top of column `to`. */
static void move_group(Board *b, int from, int position, int to) {
    append_cards(b, to, CARDS(b, from) + position, b->length[from] - position);
    b->length[from] = (uint8_t)position;
}

/* Board.play: a move known to be legal. */
static Record play(Board *b, int card, int dest) {
    int source = b->loc[card], suit = suit_of(card);
    Record record = {(uint8_t)card, (uint8_t)source, (uint8_t)dest, 0, 0};
    uint8_t moved = (uint8_t)card;
    if (source == FOUNDATION) { /* a take-back */
        b->found[suit]--;
        record.start = b->length[dest];
        append_cards(b, dest, &moved, 1);
        return record;
    }
    if (dest == FOUNDATION) {
        record.start = (uint8_t)(b->length[source] - 1);
        b->length[source]--;
        b->found[suit]++;
        b->loc[card] = FOUNDATION;
    } else {
        record.start = b->length[dest];
        move_group(b, source, b->index[card], dest);
    }
    int hidden = DOWN(b, source);
    if (hidden && b->length[source] == hidden) {
        DOWN(b, source) = (uint8_t)(hidden - 1);
        record.flipped = 1;
    }
    return record;
}

static void unplay(Board *b, const Record *record) {
    int card = record->card;
    uint8_t moved = (uint8_t)card;
    if (record->flipped) DOWN(b, record->source)++;
    if (record->source == FOUNDATION) {
        b->length[record->dest]--;
        b->found[suit_of(card)]++;
        b->loc[card] = FOUNDATION;
    } else if (record->dest == FOUNDATION) {
        b->found[suit_of(card)]--;
        append_cards(b, record->source, &moved, 1);
    } else {
        move_group(b, record->dest, record->start, record->source);
    }
}

static void unplay_all(Board *b, const Record *records, int count) {
    while (count > 0) unplay(b, &records[--count]);
}

/* Board.is_safe: moving `card` to its foundation cannot cost the win (README.md, reduction 4). */
static bool is_safe(const Board *b, int card) {
    if (b->eager) return true;
    const uint8_t *found = b->found;
    int rank = rank_of(card), suit = suit_of(card);
    if (b->classic) {
        int opposite = is_red(card) ? min_int(found[0], found[3]) : min_int(found[1], found[2]);
        return rank <= opposite + 1 && rank <= found[3 - suit] + 2; /* 3 - suit: ♠ ↔ ♣, ♥ ↔ ♦ */
    }
    int lowest = min_int(found[(suit + 1) % 4], min_int(found[(suit + 2) % 4], found[(suit + 3) % 4]));
    return rank <= lowest + 1;
}

/* ------------------------------------------------------------------------- safe moves */

/* Board.play_safe: after the last of `records` (or at the start), every safe foundation move.
 * After a plain move only the column it left can offer a new card: the fast paths. */
static void play_safe(Board *b, Record *records, int *count) {
    if (*count) {
        const Record *last = &records[*count - 1];
        if (last->source == FOUNDATION) return; /* a take-back makes nothing safe */
        if (last->dest != FOUNDATION) {
            int c = last->source;
            if (b->length[c] <= DOWN(b, c)) return;
            int card = top_card(b, c);
            if (!goes_up(b, card) || !is_safe(b, card)) return;
        }
    }
    bool again = true;
    while (again) {
        again = false;
        for (int c = 0; c < COLUMN_COUNT; c++) {
            if (b->length[c] > DOWN(b, c)) {
                int card = top_card(b, c);
                if (goes_up(b, card) && is_safe(b, card)) {
                    records[(*count)++] = play(b, card, FOUNDATION);
                    again = true;
                }
            }
        }
    }
}

/* search.play_with_safe: a move and the safe moves it opens; the records undo them all. */
static int play_with_safe(Board *b, int card, int dest, Record *records) {
    int count = 0;
    records[count++] = play(b, card, dest);
    play_safe(b, records, &count);
    return count;
}

/* ------------------------------------------------------------------------------ moves */

typedef struct {
    uint8_t card, dest;
} Move;

typedef struct {
    Move first[MOVE_CAPACITY], second[MOVE_CAPACITY];
    int first_count, second_count;
} Moves;

static bool safe_after_take_back(Board *b, int card) {
    b->found[suit_of(card)]--;
    bool safe = is_safe(b, card);
    b->found[suit_of(card)]++;
    return safe;
}

/* The card is face up with at most MAX_GROUP cards from it to the top of its column. */
static bool group_free(const Board *b, int card) {
    int c = b->loc[card], position = b->index[card];
    return position >= DOWN(b, c) && b->length[c] - position <= MAX_GROUP;
}

/* Board._movable: `card` could move now from a column other than `away_from`, or be taken back. */
static bool movable(const Board *b, int card, int away_from) {
    int source = b->loc[card];
    if (source == FOUNDATION) return b->found[suit_of(card)] == rank_of(card);
    return source != away_from && group_free(b, card);
}

/* Board._can_build_on: after taking `card` back onto `dest`, something could be placed on it. */
static bool can_build_on(const Board *b, int card, int dest) {
    int fitting[SUIT_COUNT], count = cards_fitting(b->classic, card, fitting);
    for (int k = 0; k < count; k++)
        if (movable(b, fitting[k], dest)) return true;
    return false;
}

/* Moving the group of `card` (at `position` of `source`) leaves a card it fits, which no
 * other card could use next: a second-tier move. */
static bool leaves_a_useless_fit(const Board *b, int card, int source, int position) {
    int below = CARDS(b, source)[position - 1];
    if (!fits_on(b->classic, card, below) || goes_up(b, below)) return false;
    int fitting[SUIT_COUNT], count = cards_fitting(b->classic, below, fitting);
    for (int k = 0; k < count; k++) {
        int other = fitting[k], where = b->loc[other];
        if (other == card) continue;
        if (where == FOUNDATION) {
            if (b->found[suit_of(other)] == rank_of(other)) return false;
        } else if (where != source && group_free(b, other)) {
            return false;
        }
    }
    return true;
}

static inline void add_move(Move *moves, int *count, int card, int dest) {
    moves[*count].card = (uint8_t)card;
    moves[*count].dest = (uint8_t)dest;
    (*count)++;
}

/* Board.moves: the two tiers, in the same order. */
static void generate_moves(Board *b, Moves *m) {
    m->first_count = m->second_count = 0;
    int empty = -1;
    for (int dest = 0; dest < COLUMN_COUNT; dest++) {
        if (!b->length[dest]) {
            if (empty < 0) empty = dest;
            continue;
        }
        int top = top_card(b, dest);
        if (goes_up(b, top)) add_move(m->first, &m->first_count, top, FOUNDATION);
        int fitting[SUIT_COUNT], count = cards_fitting(b->classic, top, fitting);
        for (int k = 0; k < count; k++) {
            int card = fitting[k], source = b->loc[card];
            if (source == FOUNDATION) {
                if (b->found[suit_of(card)] == rank_of(card) && !safe_after_take_back(b, card)) {
                    if (can_build_on(b, card, dest)) add_move(m->first, &m->first_count, card, dest);
                    else add_move(m->second, &m->second_count, card, dest);
                }
                continue;
            }
            if (source == dest) continue;
            int position = b->index[card], hidden = DOWN(b, source);
            if (position < hidden || b->length[source] - position > MAX_GROUP) continue;
            if (position > hidden && leaves_a_useless_fit(b, card, source, position))
                add_move(m->second, &m->second_count, card, dest);
            else
                add_move(m->first, &m->first_count, card, dest);
        }
    }
    if (empty < 0) return;
    for (int suit = 0; suit < SUIT_COUNT; suit++) { /* Kings, to the first empty column only */
        int king = suit * 13 + KING - 1, source = b->loc[king];
        if (source == FOUNDATION) {
            if (b->found[suit] == KING) {
                if (can_build_on(b, king, empty)) add_move(m->first, &m->first_count, king, empty);
                else add_move(m->second, &m->second_count, king, empty);
            }
            continue;
        }
        int position = b->index[king];
        if (DOWN(b, source) <= position && 0 < position && b->length[source] - position <= MAX_GROUP)
            add_move(m->first, &m->first_count, king, empty);
    }
}

/* ------------------------------------------------------------------------------- keys */

/* Python's order of bytes: byte by byte, then the shorter first. */
static int compare_bytes(const uint8_t *a, int a_length, const uint8_t *b, int b_length) {
    int order = memcmp(a, b, (size_t)min_int(a_length, b_length));
    return order ? order : a_length - b_length;
}

/* Two column keys in Python's order of bytes. Two columns never hold the same card, so the
 * face-down count or the first card decides, unless one is empty (a prefix: first). */
static int compare_columns(const Board *b, int x, int y) {
    if (DOWN(b, x) != DOWN(b, y)) return DOWN(b, x) - DOWN(b, y);
    if (!b->length[x] || !b->length[y]) return b->length[x] - b->length[y];
    return CARDS(b, x)[0] - CARDS(b, y)[0];
}

/* Board.key: the column keys sorted, joined by SEPARATOR. Returns its length. */
static int board_key(const Board *b, uint8_t *out) {
    int order[COLUMN_COUNT];
    for (int c = 0; c < COLUMN_COUNT; c++) {
        int k = c;
        for (; k > 0 && compare_columns(b, order[k - 1], c) > 0; k--) order[k] = order[k - 1];
        order[k] = c;
    }
    int length = 0;
    for (int k = 0; k < COLUMN_COUNT; k++) {
        int c = order[k];
        if (k) out[length++] = SEPARATOR;
        memcpy(out + length, b->column[c], (size_t)b->length[c] + 1);
        length += b->length[c] + 1;
    }
    return length;
}

/* Board.load: the position of `key`, columns in key order. */
static void board_load(Board *b, const uint8_t *key, int length) {
    int remaining[SUIT_COUNT] = {0, 0, 0, 0};
    memset(b->loc, FOUNDATION, sizeof b->loc);
    int at = 0;
    for (int c = 0; c < COLUMN_COUNT; c++) {
        int end = at + 1;
        while (end < length && key[end] != SEPARATOR) end++;
        DOWN(b, c) = key[at];
        b->length[c] = 0;
        append_cards(b, c, key + at + 1, end - at - 1);
        for (int k = at + 1; k < end; k++) remaining[suit_of(key[k])]++;
        at = end + 1;
    }
    for (int suit = 0; suit < SUIT_COUNT; suit++) b->found[suit] = (uint8_t)(13 - remaining[suit]);
}

/* ----------------------------------------------------------------------------- rating */

typedef struct {
    int64_t face_down, breaks, covering, foundation, second_tier; /* rating.Weights */
} Weights;

/* ColumnScores.__missing__: the score of a column key (face-down count, then `count` cards). */
static int64_t column_score(const Weights *w, bool classic, const uint8_t *key, int count) {
    if (!count) return 0;
    int hidden = key[0], breaks = 0;
    for (int index = hidden + 1; index <= count; index++) {
        if (index == 1) breaks += rank_of(key[1]) != KING;
        else if (index == hidden + 1 || !fits_on(classic, key[index], key[index - 1])) breaks++;
    }
    int64_t score = w->face_down * hidden + w->breaks * breaks;
    if (hidden) score += w->covering * (count - hidden);
    return score;
}

static int64_t score_of_column(const Board *b, const Weights *w, int c) {
    return column_score(w, b->classic, b->column[c], b->length[c]);
}

/* rating.rescore: the change of score after `records`, from the columns' scores before them.
 * Each column the records touch counts once, at its score after them all. */
static int64_t score_change(const Board *b, const Weights *w, const int64_t before[COLUMN_COUNT],
                            const Record *records, int count) {
    bool touched[COLUMN_COUNT + 1] = {false};
    for (int k = 0; k < count; k++) touched[records[k].source] = touched[records[k].dest] = true;
    int64_t change = 0;
    for (int c = 0; c < COLUMN_COUNT; c++)
        if (touched[c]) change += score_of_column(b, w, c) - before[c];
    return change;
}

/* --------------------------------------------------------------------------- deadlock */

/* Events as in blocks.py: DEPART + card, UP + card, EMPTY + column, ANY_EMPTY. */
enum {
    DEPART = 0,
    UP = DECK_SIZE,
    EMPTY = 2 * DECK_SIZE,
    ANY_EMPTY = EMPTY + COLUMN_COUNT,
    EVENT_COUNT = ANY_EMPTY + 1,
    NO_DEADLOCK = -1,
    DEADLOCK_NO_MEMORY = -2,
};

/* A set of events, one bit each (events 0 … 63 in `low`): a clause is built with a few ORs.
 * Two named words rather than an array, so that they stay in registers. */
typedef struct {
    uint64_t low, high;
} EventSet;

static const EventSet NO_EVENTS = {0, 0};

static inline uint64_t event_bit(int event) { return UINT64_C(1) << (event & 63); }

/* `set` with `event` (none when event < 0). */
static inline EventSet with(EventSet set, int event) {
    if (event >= 64) set.high |= event_bit(event);
    else if (event >= 0) set.low |= event_bit(event);
    return set;
}

static inline bool has(const EventSet *set, int event) {
    return ((event >= 64 ? set->high : set->low) & event_bit(event)) != 0;
}

static inline void remove_event(EventSet *set, int event) {
    if (event >= 64) set->high &= ~event_bit(event);
    else set->low &= ~event_bit(event);
}

/* `set` without the events of `gone`; true when something is left. */
static inline bool remove_all(EventSet *set, const EventSet *gone) {
    set->low &= ~gone->low;
    set->high &= ~gone->high;
    return set->low || set->high;
}

static inline int lowest_bit(uint64_t bits) {
#if defined(__GNUC__)
    return __builtin_ctzll(bits);
#else
    int bit = 0;
    while (!(bits >> bit & 1)) bit++;
    return bit;
#endif
}

static inline int lowest_event(const EventSet *set) {
    return set->low ? lowest_bit(set->low) : 64 + lowest_bit(set->high);
}

static inline int event_count(const EventSet *set) {
#if defined(__GNUC__)
    return __builtin_popcountll(set->low) + __builtin_popcountll(set->high);
#else
    int count = 0;
    for (int event = 0; event < 128; event++) count += has(set, event);
    return count;
#endif
}

/* The events `first` … `end` - 1, by shifts rather than one `with` each. */
static inline uint64_t bits_from(int first, int end) { /* 0 <= first <= end <= 64 */
    return end - first == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << (end - first)) - 1) << first;
}

static inline EventSet event_range(int first, int end) {
    EventSet set = NO_EVENTS;
    if (first >= end) return set;
    if (first < 64) set.low = bits_from(first, end < 64 ? end : 64);
    if (end > 64) set.high = bits_from(first > 64 ? first - 64 : 0, end - 64);
    return set;
}

/* blocks.deadlock's Horn clauses: each way an event may happen, with what the event needs in
 * any case, is a clause. A clause waits on one of its events not happened yet; when that one
 * happens, it waits on another, or makes its event happen. */
typedef struct {
    EventSet needs; /* its events not happened when last looked at */
    int32_t event;  /* the event it makes happen */
    int32_t next;   /* the next clause waiting on the same event */
} Clause;

typedef struct {
    Clause *clauses; /* kept between positions: a search allocates once */
    size_t clause_count, clause_capacity;
    int32_t waiting[EVENT_COUNT]; /* the first clause waiting on each event, or -1 */
    EventSet done, queued;
    int16_t ready[EVENT_COUNT];
    int ready_count;
    int8_t bottom_of[DECK_SIZE]; /* the column a card is the bottom card of, or -1 */
    bool out_of_memory;
} Deadlock;

static void queue_event(Deadlock *d, int event) {
    if (!has(&d->done, event) && !has(&d->queued, event)) {
        d->queued = with(d->queued, event);
        d->ready[d->ready_count++] = (int16_t)event;
    }
}

static void wait_on(Deadlock *d, int32_t clause, int event) {
    d->clauses[clause].next = d->waiting[event];
    d->waiting[event] = clause;
}

/* One way of `event`, with what it needs in any case. True when nothing of it is missing:
 * the event is ready, and its other ways need no clause (as in Python). */
static bool add_clause(Deadlock *d, int event, uint64_t low, uint64_t high) {
    low &= ~d->done.low;
    high &= ~d->done.high;
    if (!(low | high)) {
        queue_event(d, event);
        return true;
    }
    if (!RESERVE(d->clauses, d->clause_capacity, d->clause_count + 1)) {
        d->out_of_memory = true;
        return true;
    }
    int32_t clause = (int32_t)d->clause_count++;
    d->clauses[clause].needs.low = low;
    d->clauses[clause].needs.high = high;
    d->clauses[clause].event = event;
    wait_on(d, clause, low ? lowest_bit(low) : 64 + lowest_bit(high));
    return false;
}

/* The set goes as two words: passed as one 128-bit value, it costs a stall (stored apart,
 * loaded whole) that made the deadlock test twice as slow. */
static inline bool add_way(Deadlock *d, int event, EventSet needs) {
    return add_clause(d, event, needs.low, needs.high);
}

/* blocks.requirements, written as clauses straight away. `done`: the events that need
 * nothing (already happened, or meaningless here), as requirements' None. */
static void add_clauses(Deadlock *d, const Board *b) {
    int column_of[DECK_SIZE], depth_of[DECK_SIZE], uncover[DECK_SIZE]; /* uncover: -1, or an event */
    bool empty_now[COLUMN_COUNT + 1] = {false};
    int empty_count = 0;
    for (int card = 0; card < DECK_SIZE; card++) column_of[card] = depth_of[card] = 0, uncover[card] = -1;
    memset(d->bottom_of, -1, sizeof d->bottom_of);
    for (int c = 0; c < COLUMN_COUNT; c++) {
        const uint8_t *cards = CARDS(b, c);
        if (!b->length[c]) empty_now[c] = true, empty_count++;
        else d->bottom_of[cards[0]] = (int8_t)c;
        for (int i = 0; i < b->length[c]; i++) {
            column_of[cards[i]] = c, depth_of[cards[i]] = i;
            if (i) uncover[cards[i - 1]] = DEPART + cards[i];
            remove_event(&d->done, DEPART + cards[i]);
            if (b->found[suit_of(cards[i])] < rank_of(cards[i])) remove_event(&d->done, UP + cards[i]);
        }
    }
    /* A column other than `c` is empty now (c == COLUMN_COUNT: any column). */
#define OTHER_EMPTY(c) (empty_count > (empty_now[c] ? 1 : 0))
    for (int c = 0; c <= COLUMN_COUNT; c++)
        if (!OTHER_EMPTY(c)) remove_event(&d->done, EMPTY + c);
    for (int c = 0; c < COLUMN_COUNT; c++) {
        const uint8_t *cards = CARDS(b, c);
        for (int i = 0; i < b->length[c]; i++) {
            int card = cards[i], rank = rank_of(card), suit = suit_of(card), event = DEPART + card;
            EventSet base = i < DOWN(b, c) ? with(NO_EVENTS, uncover[card]) : NO_EVENTS;
            /* To the foundation: nothing on it, every card of its suit below it up already. */
            EventSet lower = event_range(UP + suit * 13 + b->found[suit], UP + card);
            EventSet to_foundation = with(base, uncover[card]);
            to_foundation.low |= lower.low, to_foundation.high |= lower.high;
            bool ready = add_way(d, event, to_foundation);
            /* Onto a card it fits, with nothing on that card. */
            const int *parents = PARENTS[b->classic][card];
            int parent_count = PARENT_COUNT[b->classic][card];
            for (int p = 0; p < parent_count && !ready; p++) {
                int top = parents[p];
                if (b->found[suit_of(top)] >= rank_of(top)) {
                    /* Up: back by a take-back, after its suit's King, which needs an empty column. */
                    bool needs_empty = b->found[suit_of(top)] == KING && !empty_count;
                    ready = add_way(d, event, with(base, needs_empty ? ANY_EMPTY : -1));
                } else if (column_of[top] == c && depth_of[top] > i) {
                    /* Above it in its own group: some card between them must leave first. */
                    for (int k = i + 1; k <= depth_of[top] && !ready; k++)
                        ready = add_way(d, event, with(with(base, DEPART + cards[k]), uncover[top]));
                } else if (uncover[top] != event) { /* lying on it already is no way onto it */
                    ready = add_way(d, event, with(base, uncover[top]));
                }
            }
            if (rank == KING && !ready) {
                /* It stays in this column until it leaves the card under it if that card is
                 * face down (or it is the bottom); otherwise any empty column will do. */
                if (i <= DOWN(b, c)) add_way(d, event, with(base, OTHER_EMPTY(c) ? -1 : EMPTY + c));
                else add_way(d, event, with(base, empty_count ? -1 : ANY_EMPTY));
            }
            if (b->found[suit] < rank) {
                EventSet up_needs = with(NO_EVENTS, uncover[card]);
                add_way(d, UP + card, with(up_needs, b->found[suit] < rank - 1 ? UP + card - 1 : -1));
            }
        }
    }
    /* A column is emptied for the first time when its bottom card leaves: no clauses here;
     * find_deadlock makes those events happen as a bottom card's departure does (bottom_of). */
#undef OTHER_EMPTY
}

/* blocks.deadlock: a departure or arrival that no line reaches (the first such event), or
 * NO_DEADLOCK. The least fixed point does not depend on the order events join in. The events
 * "a column (other than c) has been empty" have no clauses: they join as the first bottom card
 * of another column departs, which is all their ways say (blocks.requirements). */
static int find_deadlock(Deadlock *d, const Board *b) {
    d->clause_count = 0;
    d->ready_count = 0;
    d->out_of_memory = false;
    d->done.low = d->done.high = ~UINT64_C(0); /* until add_clauses finds ways */
    d->queued = NO_EVENTS;
    memset(d->waiting, 0xff, sizeof d->waiting);
    add_clauses(d, b);
    if (d->out_of_memory) return DEADLOCK_NO_MEMORY;
    EventSet to_happen = event_range(0, EMPTY);
    remove_all(&to_happen, &d->done);
    int to_reach = event_count(&to_happen); /* departures and arrivals still to happen */
    while (d->ready_count) {
        int event = d->ready[--d->ready_count];
        d->done = with(d->done, event);
        if (event < EMPTY && --to_reach == 0) return NO_DEADLOCK;
        if (event < UP && d->bottom_of[event] >= 0)
            for (int c = 0; c <= COLUMN_COUNT; c++)
                if (c != d->bottom_of[event]) queue_event(d, EMPTY + c);
        int32_t clause = d->waiting[event];
        d->waiting[event] = -1;
        while (clause >= 0) {
            Clause *c = &d->clauses[clause];
            int32_t next = c->next;
            if (!has(&d->done, c->event) && !has(&d->queued, c->event)) {
                if (remove_all(&c->needs, &d->done)) wait_on(d, clause, lowest_event(&c->needs));
                else queue_event(d, c->event);
            }
            clause = next;
        }
    }
    for (int event = 0; event < EMPTY; event++)
        if (!has(&d->done, event)) return event;
    return NO_DEADLOCK;
}

/* blocks.worth_a_deadlock_test: a move from column to column (`records` start with it), tested. */
static inline bool worth_a_deadlock_test(const Record *records) {
    return records[0].source != FOUNDATION && records[0].dest != FOUNDATION;
}

static void deadlock_free(Deadlock *d) {
    if (!d) return;
    free(d->clauses);
    free(d);
}

/* ------------------------------------------------------------------------- seen-table */

/* Positions seen, kept exactly (a hash alone could merge two positions, and a proof of
 * "unwinnable" would no longer hold): the keys in an arena, each as its length then its
 * bytes, and open addressing over them. A slot holds the top bits of the key's hash (to skip
 * most comparisons) and the key's offset in the arena plus one (0: a free slot). */
typedef struct {
    uint8_t *arena;
    size_t arena_used, arena_capacity;
    uint64_t *slots;
    size_t slot_count, count;
} SeenTable;

#define OFFSET_BITS 40
#define OFFSET_MASK ((UINT64_C(1) << OFFSET_BITS) - 1)

typedef enum { TABLE_FOUND, TABLE_MISSING, TABLE_ADDED, TABLE_NO_MEMORY } TableAnswer;

static bool table_init(SeenTable *t) {
    memset(t, 0, sizeof *t);
    t->slot_count = 1024;
    return (t->slots = calloc(t->slot_count, sizeof *t->slots)) != NULL;
}

static void table_release(SeenTable *t) {
    free(t->arena);
    free(t->slots);
}

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    return x ^ (x >> 33);
}

/* A multiply and a rotation a word, then a full mix: keys are short. */
static uint64_t hash_key(const uint8_t *key, int length) {
    uint64_t hash = UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)length, word;
    int at = 0;
    for (; at + 8 <= length; at += 8) {
        memcpy(&word, key + at, 8);
        hash = (hash ^ word) * UINT64_C(0xff51afd7ed558ccd);
        hash = hash << 31 | hash >> 33;
    }
    word = 0;
    memcpy(&word, key + at, (size_t)(length - at));
    return mix(hash ^ word);
}

static const uint8_t *table_key(const SeenTable *t, uint64_t offset, int *length) {
    *length = t->arena[offset];
    return t->arena + offset + 1;
}

static bool table_grow_slots(SeenTable *t) {
    size_t count = t->slot_count * 2, mask = count - 1;
    uint64_t *slots = calloc(count, sizeof *slots);
    if (!slots) return false;
    for (size_t old = 0; old < t->slot_count; old++) {
        uint64_t slot = t->slots[old];
        if (!slot) continue;
        int length;
        const uint8_t *key = table_key(t, (slot & OFFSET_MASK) - 1, &length);
        size_t i = hash_key(key, length) & mask;
        while (slots[i]) i = (i + 1) & mask;
        slots[i] = slot;
    }
    free(t->slots);
    t->slots = slots;
    t->slot_count = count;
    return true;
}

/* Look `key` up; with `add`, add it when missing. `offset`, when given: where its bytes are. */
static TableAnswer table_find(SeenTable *t, const uint8_t *key, int length, bool add, uint64_t *offset) {
    if (add && (t->count + 1) * 2 > t->slot_count && !table_grow_slots(t)) return TABLE_NO_MEMORY;
    uint64_t hash = hash_key(key, length), tag = hash >> OFFSET_BITS;
    size_t mask = t->slot_count - 1, i = hash & mask;
    for (; t->slots[i]; i = (i + 1) & mask) {
        uint64_t slot = t->slots[i];
        if (slot >> OFFSET_BITS != tag) continue;
        uint64_t at = (slot & OFFSET_MASK) - 1;
        if (t->arena[at] == length && !memcmp(t->arena + at + 1, key, (size_t)length)) {
            if (offset) *offset = at;
            return TABLE_FOUND;
        }
    }
    if (!add) return TABLE_MISSING;
    size_t at = t->arena_used, end = at + (size_t)length + 1;
    if (end >= OFFSET_MASK || !RESERVE(t->arena, t->arena_capacity, end)) return TABLE_NO_MEMORY;
    t->arena[at] = (uint8_t)length;
    memcpy(t->arena + at + 1, key, (size_t)length);
    t->arena_used = end;
    t->slots[i] = tag << OFFSET_BITS | (at + 1);
    t->count++;
    if (offset) *offset = at;
    return TABLE_ADDED;
}

/* ------------------------------------------------------------------------ depth-first */

/* A move of a position on the stack, in the order depth_first._ordered gives. */
typedef struct {
    uint8_t card, dest;
    uint8_t key_length; /* 0: second tier, its key computed once played */
    size_t key_at;      /* the key it leads to, in the search's key store */
} PlannedMove;

typedef struct {
    size_t first_move, end, next; /* its moves: planned[first_move .. end) */
    size_t key_mark;              /* the key store's length before them */
} Frame;

typedef struct {
    Board board;
    Weights weights;
    SeenTable *seen; /* the caller's, perhaps shared with other searches */
    Deadlock *deadlock; /* NULL: no deadlock tests */
    bool streamlined;   /* first-tier moves only, no take-backs, eager board: no proof */
    bool keep_builds;   /* streamlined too: a card on a card it fits leaves it only to go up */
    uint64_t steps, steps_per_slice, nodes;
    bool started, resuming;
    int status;
    Frame *frames;
    size_t frame_count, frame_capacity;
    PlannedMove *planned;
    size_t planned_count, planned_capacity;
    uint8_t *keys;
    size_t keys_used, keys_capacity;
    Record *records; /* the line from the start: every move played, level after level */
    size_t record_count, record_capacity;
    size_t *levels; /* where each level's records start */
    size_t level_count, level_capacity;
} DepthFirst;

typedef struct {
    int64_t rating;
    uint8_t card, dest, key_length;
    uint8_t key[KEY_CAPACITY];
} RatedMove;

/* The order of _ordered's tuples (rating, card, dest, key). (card, dest) is unique among a
 * position's moves, so the keys never decide; they are compared as Python would anyway. */
static int compare_rated(const RatedMove *a, const RatedMove *b) {
    if (a->rating != b->rating) return a->rating < b->rating ? -1 : 1;
    if (a->card != b->card) return a->card - b->card;
    if (a->dest != b->dest) return a->dest - b->dest;
    return compare_bytes(a->key, a->key_length, b->key, b->key_length);
}

/* `card` lies face up on a card it fits, as a move would leave it. */
static bool lies_on_a_fit(const Board *b, int card) {
    int c = b->loc[card], index = b->index[card];
    return index > DOWN(b, c) && fits_on(b->classic, card, CARDS(b, c)[index - 1]);
}

/* depth_first._ordered: push a frame of the position's moves, first tier best-rated first
 * (those leading to a position seen now left out), then the second tier. */
static bool plan_moves(DepthFirst *s) {
    Board *b = &s->board;
    const Weights *w = &s->weights;
    Moves moves;
    generate_moves(b, &moves);
    int64_t before[COLUMN_COUNT];
    for (int c = 0; c < COLUMN_COUNT; c++) before[c] = score_of_column(b, w, c);
    RatedMove rated[MOVE_CAPACITY];
    int order[MOVE_CAPACITY], count = 0;
    Record records[RECORD_CAPACITY];
    if (s->streamlined) moves.second_count = 0;
    for (int m = 0; m < moves.first_count; m++) {
        RatedMove *r = &rated[count];
        r->card = moves.first[m].card;
        r->dest = moves.first[m].dest;
        if (s->streamlined && b->loc[r->card] == FOUNDATION) continue; /* a take-back */
        if (s->keep_builds && r->dest != FOUNDATION && lies_on_a_fit(b, r->card)) continue;
        int played = play_with_safe(b, r->card, r->dest, records);
        r->key_length = (uint8_t)board_key(b, r->key);
        if (table_find(s->seen, r->key, r->key_length, false, NULL) == TABLE_MISSING) {
            int gained = 0;
            for (int k = 0; k < played; k++)
                gained += (records[k].dest == FOUNDATION) - (records[k].source == FOUNDATION);
            r->rating = score_change(b, w, before, records, played) - w->foundation * gained;
            int k = count++;
            for (; k > 0 && compare_rated(&rated[order[k - 1]], r) > 0; k--) order[k] = order[k - 1];
            order[k] = (int)(r - rated);
        }
        unplay_all(b, records, played);
    }
    size_t total = (size_t)count + (size_t)moves.second_count;
    if (!RESERVE(s->frames, s->frame_capacity, s->frame_count + 1) ||
        !RESERVE(s->planned, s->planned_capacity, s->planned_count + total) ||
        !RESERVE(s->keys, s->keys_capacity, s->keys_used + (size_t)count * KEY_CAPACITY))
        return false;
    Frame *frame = &s->frames[s->frame_count++];
    frame->first_move = frame->next = s->planned_count;
    frame->end = s->planned_count + total;
    frame->key_mark = s->keys_used;
    for (int k = 0; k < count; k++) {
        const RatedMove *r = &rated[order[k]];
        PlannedMove *p = &s->planned[s->planned_count++];
        p->card = r->card, p->dest = r->dest, p->key_length = r->key_length, p->key_at = s->keys_used;
        memcpy(s->keys + s->keys_used, r->key, r->key_length);
        s->keys_used += r->key_length;
    }
    for (int m = 0; m < moves.second_count; m++) {
        PlannedMove *p = &s->planned[s->planned_count++];
        p->card = moves.second[m].card, p->dest = moves.second[m].dest, p->key_length = 0, p->key_at = 0;
    }
    return true;
}

static void undo_level(DepthFirst *s) {
    size_t start = s->levels[--s->level_count];
    unplay_all(&s->board, s->records + start, (int)(s->record_count - start));
    s->record_count = start;
}

static int depth_first_fail(DepthFirst *s) { return s->status = OUT_OF_MEMORY; }

/* depth_first.depth_first, up to `slices` of its yields, or fewer: up to the first yield
 * after `stop_at` positions (where the portfolio, checking its budget after every Python
 * slice, would stop it). Python yields every steps_per_slice steps, before the step, and goes
 * on with that step when resumed. */
static int depth_first_run(DepthFirst *s, int slices, uint64_t stop_at) {
    if (s->status != RUNNING) return s->status;
    if (!s->started) {
        s->started = true;
        uint8_t key[KEY_CAPACITY];
        int length = board_key(&s->board, key);
        if (table_find(s->seen, key, length, true, NULL) == TABLE_NO_MEMORY) return depth_first_fail(s);
        s->nodes++; /* counted even when another search added it first, as in Python */
        if (!plan_moves(s)) return depth_first_fail(s);
    }
    int passed = 0;
    while (s->frame_count) {
        if (!s->resuming) {
            s->steps++;
            if (s->steps % s->steps_per_slice == 0 && (++passed == slices || s->nodes >= stop_at)) {
                s->resuming = true;
                return RUNNING;
            }
        }
        s->resuming = false;
        Frame *frame = &s->frames[s->frame_count - 1];
        if (frame->next == frame->end) { /* a line exhausted: back out of it */
            s->planned_count = frame->first_move;
            s->keys_used = frame->key_mark;
            s->frame_count--;
            if (s->level_count) undo_level(s);
            continue;
        }
        PlannedMove move = s->planned[frame->next++];
        if (!RESERVE(s->records, s->record_capacity, s->record_count + RECORD_CAPACITY) ||
            !RESERVE(s->levels, s->level_capacity, s->level_count + 1))
            return depth_first_fail(s);
        Record *records = s->records + s->record_count;
        int played = play_with_safe(&s->board, move.card, move.dest, records);
        uint8_t computed[KEY_CAPACITY];
        const uint8_t *key = computed;
        int length = move.key_length;
        if (length) key = s->keys + move.key_at; /* first tier: rated with its key */
        else length = board_key(&s->board, computed);
        TableAnswer answer = table_find(s->seen, key, length, true, NULL);
        if (answer == TABLE_NO_MEMORY) return depth_first_fail(s);
        if (answer == TABLE_FOUND) {
            unplay_all(&s->board, records, played);
            continue;
        }
        s->nodes++;
        s->levels[s->level_count++] = s->record_count;
        s->record_count += (size_t)played;
        if (is_won(&s->board)) return s->status = WON;
        if (s->deadlock && worth_a_deadlock_test(records)) {
            int event = find_deadlock(s->deadlock, &s->board);
            if (event == DEADLOCK_NO_MEMORY) return depth_first_fail(s);
            if (event != NO_DEADLOCK) { /* no line from here wins */
                undo_level(s);
                continue;
            }
        }
        if (!plan_moves(s)) return depth_first_fail(s);
    }
    return s->status = EXHAUSTED;
}

/* ------------------------------------------------------------------------- best-first */

/* best_first's heap entry, one integer: priority, then node number (older first), then a bit
 * for the second tier. Priorities are offset to stay positive, as in Python. */
#define PRIORITY_OFFSET (INT64_C(1) << 24)
#define ID_BITS 34
#define ID_MASK ((UINT64_C(1) << ID_BITS) - 1)

typedef struct {
    uint64_t key_at;  /* its key, in the table of positions generated */
    uint64_t step_at; /* the moves that led to it from its parent, in the step store */
    int64_t parent;   /* -1: the start */
    uint32_t depth;   /* moves from the start */
    uint8_t step_length;
} Node;

typedef struct {
    Board board;
    Weights weights;
    SeenTable generated; /* every position queued, once */
    SeenTable *seen;     /* shared: positions are claimed as they are taken from the queue; or NULL */
    Deadlock *deadlock;  /* NULL: no deadlock tests */
    int64_t limit, depth_weight, root_depth;
    uint64_t expansions, expansions_per_slice, nodes, won_node;
    bool started, resuming;
    int status;
    Node *node_list;
    size_t node_count, node_capacity;
    uint8_t *steps;
    size_t steps_used, steps_capacity;
    int64_t *heap;
    size_t heap_count, heap_capacity;
} BestFirst;

static bool heap_push(BestFirst *s, int64_t entry) {
    if (!RESERVE(s->heap, s->heap_capacity, s->heap_count + 1)) return false;
    size_t at = s->heap_count++;
    while (at && s->heap[(at - 1) / 2] > entry) {
        s->heap[at] = s->heap[(at - 1) / 2];
        at = (at - 1) / 2;
    }
    s->heap[at] = entry;
    return true;
}

/* Entries are all different, so any heap pops them in the order heapq does. */
static int64_t heap_pop(BestFirst *s) {
    int64_t *heap = s->heap, smallest = heap[0], last = heap[--s->heap_count];
    size_t at = 0, count = s->heap_count;
    for (;;) {
        size_t child = 2 * at + 1;
        if (child >= count) break;
        if (child + 1 < count && heap[child + 1] < heap[child]) child++;
        if (heap[child] >= last) break;
        heap[at] = heap[child];
        at = child;
    }
    if (count) heap[at] = last;
    return smallest;
}

static int64_t heap_entry(int64_t priority, size_t node, int second) {
    return priority * (INT64_C(1) << ID_BITS) + (int64_t)(node << 1) + second;
}

/* best_first._dest_code: the card a move lands on, or where it goes, before it is played. */
static uint8_t dest_code(const Board *b, int dest) {
    if (dest >= COLUMN_COUNT) return F_CODE;
    return b->length[dest] ? (uint8_t)top_card(b, dest) : EMPTY_CODE;
}

static bool add_node(BestFirst *s, uint64_t key_at, int64_t parent, uint32_t depth, const uint8_t *step,
                     int step_length) {
    if (!RESERVE(s->node_list, s->node_capacity, s->node_count + 1) ||
        !RESERVE(s->steps, s->steps_capacity, s->steps_used + (size_t)step_length))
        return false;
    Node *node = &s->node_list[s->node_count++];
    node->key_at = key_at, node->step_at = s->steps_used, node->parent = parent, node->depth = depth;
    node->step_length = (uint8_t)step_length;
    if (step_length) { /* the start has none */
        memcpy(s->steps + s->steps_used, step, (size_t)step_length);
        s->steps_used += (size_t)step_length;
    }
    s->nodes++;
    return true;
}

static int best_first_fail(BestFirst *s) { return s->status = OUT_OF_MEMORY; }

/* best_first.best_first, as depth_first_run (it yields every expansions_per_slice expansions). */
static int best_first_run(BestFirst *s, int slices, uint64_t stop_at) {
    if (s->status != RUNNING) return s->status;
    Board *b = &s->board;
    const Weights *w = &s->weights;
    uint8_t key[KEY_CAPACITY];
    if (!s->started) {
        s->started = true;
        uint64_t key_at;
        int length = board_key(b, key);
        if (table_find(&s->generated, key, length, true, &key_at) == TABLE_NO_MEMORY ||
            (s->seen && table_find(s->seen, key, length, true, NULL) == TABLE_NO_MEMORY) ||
            !add_node(s, key_at, -1, (uint32_t)s->root_depth, NULL, 0) ||
            !heap_push(s, heap_entry(PRIORITY_OFFSET, 0, 0)))
            return best_first_fail(s);
    }
    int passed = 0;
    while (s->heap_count) {
        if (!s->resuming) {
            s->expansions++;
            if (s->expansions % s->expansions_per_slice == 0 && (++passed == slices || s->nodes >= stop_at)) {
                s->resuming = true;
                return RUNNING;
            }
        }
        s->resuming = false;
        uint64_t low = (uint64_t)heap_pop(s) & ID_MASK;
        size_t node = (size_t)(low >> 1);
        int second = (int)(low & 1);
        int length;
        const uint8_t *node_key = table_key(&s->generated, s->node_list[node].key_at, &length);
        if (s->seen && node && !second) { /* claimed now, unless another search has entered it */
            TableAnswer claim = table_find(s->seen, node_key, length, true, NULL);
            if (claim == TABLE_NO_MEMORY) return best_first_fail(s);
            if (claim == TABLE_FOUND) continue;
        }
        board_load(b, node_key, length);
        if (s->deadlock && !second) { /* tested once, before its first expansion */
            int event = find_deadlock(s->deadlock, b);
            if (event == DEADLOCK_NO_MEMORY) return best_first_fail(s);
            if (event != NO_DEADLOCK) continue; /* no line from it wins: not expanded */
        }
        int64_t before[COLUMN_COUNT], base = 0;
        for (int c = 0; c < COLUMN_COUNT; c++) base += before[c] = score_of_column(b, w, c);
        int64_t depth = s->node_list[node].depth;
        Moves moves;
        generate_moves(b, &moves);
        if (moves.second_count && !second) {
            int64_t priority = base - w->foundation * found_total(b) + s->depth_weight * depth +
                               w->second_tier + PRIORITY_OFFSET;
            if (!heap_push(s, heap_entry(priority, node, 1))) return best_first_fail(s);
        }
        const Move *list = second ? moves.second : moves.first;
        int list_count = second ? moves.second_count : moves.first_count;
        for (int m = 0; m < list_count; m++) {
            uint8_t step[2 * RECORD_CAPACITY];
            Record records[RECORD_CAPACITY];
            step[0] = list[m].card;
            step[1] = dest_code(b, list[m].dest);
            int played = play_with_safe(b, list[m].card, list[m].dest, records);
            for (int k = 1; k < played; k++) step[2 * k] = records[k].card, step[2 * k + 1] = F_CODE;
            int found = found_total(b);
            int64_t child_depth = depth + played;
            if (child_depth + DECK_SIZE - found >= s->limit) { /* every card left needs a move */
                unplay_all(b, records, played);
                continue;
            }
            int64_t change = score_change(b, w, before, records, played);
            uint64_t key_at;
            int key_length = board_key(b, key);
            TableAnswer answer = s->seen && table_find(s->seen, key, key_length, false, NULL) == TABLE_FOUND
                                     ? TABLE_FOUND
                                     : table_find(&s->generated, key, key_length, true, &key_at);
            if (answer == TABLE_NO_MEMORY) return best_first_fail(s);
            if (answer == TABLE_ADDED) {
                size_t child = s->node_count;
                if (!add_node(s, key_at, (int64_t)node, (uint32_t)child_depth, step, 2 * played))
                    return best_first_fail(s);
                if (found == DECK_SIZE) {
                    s->won_node = child;
                    return s->status = WON;
                }
                int64_t priority = base + change - w->foundation * found + s->depth_weight * child_depth +
                                   PRIORITY_OFFSET;
                if (!heap_push(s, heap_entry(priority, child, 0))) return best_first_fail(s);
            }
            unplay_all(b, records, played);
        }
    }
    return s->status = EXHAUSTED;
}

/* ------------------------------------------------------------ what core.py calls */

int core_interface_version(void) { return INTERFACE_VERSION; }

/* A board from its columns (`lengths[c]` cards each, bottom to top, one after the other),
 * face-down counts and foundations. NULL when it cannot be a position. */
Board *core_board_new(int classic, const uint8_t *cards, const uint8_t *lengths, const uint8_t *down,
                      const uint8_t *found) {
    parents_init(); /* every search's board starts here */
    Board *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->classic = classic != 0;
    memset(b->loc, FOUNDATION, sizeof b->loc);
    int at = 0;
    for (int c = 0; c < COLUMN_COUNT; c++) {
        if (at + lengths[c] > DECK_SIZE || down[c] > lengths[c]) goto invalid;
        for (int k = 0; k < lengths[c]; k++)
            if (cards[at + k] >= DECK_SIZE) goto invalid;
        DOWN(b, c) = down[c];
        append_cards(b, c, cards + at, lengths[c]);
        at += lengths[c];
    }
    for (int suit = 0; suit < SUIT_COUNT; suit++) {
        if (found[suit] > 13) goto invalid;
        b->found[suit] = found[suit];
    }
    if (at + found_total(b) == DECK_SIZE) return b;
invalid:
    free(b);
    return NULL;
}

void core_board_free(Board *b) { free(b); }

/* Board.moves: first tier then second, two bytes (card, dest) a move; the counts in *_count. */
void core_board_moves(Board *b, uint8_t *first, int *first_count, uint8_t *second, int *second_count) {
    Moves moves;
    generate_moves(b, &moves);
    memcpy(first, moves.first, 2 * (size_t)moves.first_count);
    memcpy(second, moves.second, 2 * (size_t)moves.second_count);
    *first_count = moves.first_count;
    *second_count = moves.second_count;
}

/* Board.key, into `out` (KEY_CAPACITY bytes); returns its length. */
int core_board_key(const Board *b, uint8_t *out) { return board_key(b, out); }

/* play_with_safe (card < 0: play_safe at the start); five bytes a record into `out`. */
int core_board_play(Board *b, int card, int dest, uint8_t *out) {
    Record records[RECORD_CAPACITY];
    int count = 0;
    if (card >= 0) count = play_with_safe(b, card, dest, records);
    else play_safe(b, records, &count);
    memcpy(out, records, sizeof(Record) * (size_t)count);
    return count;
}

/* unplay_all of records as core_board_play wrote them. */
void core_board_unplay(Board *b, const uint8_t *records, int count) {
    while (count > 0) {
        Record record;
        memcpy(&record, records + sizeof record * (size_t)--count, sizeof record);
        unplay(b, &record);
    }
}

/* blocks.deadlock: the event, or -1 (none), or -2 (memory out). */
int core_board_deadlock(const Board *b) {
    Deadlock *d = calloc(1, sizeof *d);
    if (!d) return DEADLOCK_NO_MEMORY;
    int event = find_deadlock(d, b);
    deadlock_free(d);
    return event;
}

/* ColumnScores: the score of one column key; `weights` as rating.Weights, in field order. */
int64_t core_column_score(int classic, const int64_t *weights, const uint8_t *key, int length) {
    Weights w = {weights[0], weights[1], weights[2], weights[3], weights[4]};
    return column_score(&w, classic != 0, key, length - 1);
}

SeenTable *core_table_new(void) {
    SeenTable *t = malloc(sizeof *t);
    if (t && !table_init(t)) {
        free(t);
        return NULL;
    }
    return t;
}

void core_table_free(SeenTable *t) {
    if (!t) return;
    table_release(t);
    free(t);
}

uint64_t core_table_count(const SeenTable *t) { return t->count; }

int core_table_contains(SeenTable *t, const uint8_t *key, int length) {
    return table_find(t, key, length, false, NULL) == TABLE_FOUND;
}

static Weights weights_of(const int64_t *weights) {
    Weights w = {weights[0], weights[1], weights[2], weights[3], weights[4]};
    return w;
}

/* A depth-first search from `start` (after its safe moves), adding to `seen`. */
DepthFirst *core_depth_first_new(const Board *start, const int64_t *weights, SeenTable *seen, int deadlocks,
                                 int streamlining, uint64_t steps_per_slice) {
    DepthFirst *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->board = *start;
    s->streamlined = streamlining != 0; /* 1: streamlined, 2: streamlined and keeping builds */
    s->keep_builds = streamlining == 2;
    s->board.eager = s->streamlined;
    s->weights = weights_of(weights);
    s->seen = seen;
    s->steps_per_slice = steps_per_slice ? steps_per_slice : 1;
    if (deadlocks && !(s->deadlock = calloc(1, sizeof *s->deadlock))) {
        free(s);
        return NULL;
    }
    return s;
}

/* Run for `slices` of the Python search's yields, or until the first after adding `nodes_left`
 * positions (what the budget has left); the status, and the positions added. */
int core_depth_first_step(DepthFirst *s, int slices, uint64_t nodes_left, uint64_t *nodes_added) {
    uint64_t before = s->nodes;
    int status = depth_first_run(s, slices, before + nodes_left);
    *nodes_added = s->nodes - before;
    return status;
}

/* The won line from the start: two bytes (card, dest) a move; `out` NULL: just the count. */
size_t core_depth_first_line(const DepthFirst *s, uint8_t *out) {
    if (out)
        for (size_t k = 0; k < s->record_count; k++)
            out[2 * k] = s->records[k].card, out[2 * k + 1] = s->records[k].dest;
    return s->record_count;
}

void core_depth_first_free(DepthFirst *s) {
    if (!s) return;
    deadlock_free(s->deadlock);
    free(s->frames);
    free(s->planned);
    free(s->keys);
    free(s->records);
    free(s->levels);
    free(s);
}

/* A best-first search from `start` (after its `root_depth` safe moves), claiming positions in
 * `seen` (NULL: a table of its own) as it takes them from its queue; only lines shorter than
 * `limit` moves, longer ones rated worse by `depth_weight`. */
BestFirst *core_best_first_new(const Board *start, const int64_t *weights, SeenTable *seen,
                               int64_t root_depth, int64_t limit, int64_t depth_weight, int deadlocks,
                               uint64_t expansions_per_slice) {
    BestFirst *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->board = *start;
    s->weights = weights_of(weights);
    s->seen = seen;
    s->root_depth = root_depth, s->limit = limit, s->depth_weight = depth_weight;
    s->expansions_per_slice = expansions_per_slice ? expansions_per_slice : 1;
    if (!table_init(&s->generated) || (deadlocks && !(s->deadlock = calloc(1, sizeof *s->deadlock)))) {
        table_release(&s->generated);
        free(s);
        return NULL;
    }
    return s;
}

int core_best_first_step(BestFirst *s, int slices, uint64_t nodes_left, uint64_t *nodes_added) {
    uint64_t before = s->nodes;
    int status = best_first_run(s, slices, before + nodes_left);
    *nodes_added = s->nodes - before;
    return status;
}

/* The won node's steps from the start, as best_first stores them (card, landing code);
 * `out` NULL: just the length in bytes. */
size_t core_best_first_line(const BestFirst *s, uint8_t *out) {
    size_t length = 0;
    for (int64_t node = (int64_t)s->won_node; node >= 0; node = s->node_list[node].parent)
        length += s->node_list[node].step_length;
    if (out) {
        size_t end = length;
        for (int64_t node = (int64_t)s->won_node; node >= 0; node = s->node_list[node].parent) {
            const Node *n = &s->node_list[node];
            end -= n->step_length;
            memcpy(out + end, s->steps + n->step_at, n->step_length);
        }
    }
    return length;
}

void core_best_first_free(BestFirst *s) {
    if (!s) return;
    deadlock_free(s->deadlock);
    table_release(&s->generated);
    free(s->node_list);
    free(s->steps);
    free(s->heap);
    free(s);
}
