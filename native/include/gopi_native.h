/*
 * gopi_native.h: the C surface of libgopi_native.a as gopi's Go code uses it.
 *
 * Two groups of functions live in the library:
 *   - rure_*: the regex crate's official C API (crate `rure`), re-exported
 *     unchanged. Only the functions gopi calls are declared here.
 *   - gopi_*: gopi's own entry points. Each catches Rust panics and reports
 *     them as an error value; none keeps a pointer it was given after it
 *     returns. Objects and strings they return are owned by the caller and
 *     released with the matching *_free function.
 */
#ifndef GOPI_NATIVE_H
#define GOPI_NATIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- rure (regex crate C API) ------------------------------------------ */

/* Opaque rure objects. */
typedef struct rure rure;
typedef struct rure_options rure_options;
typedef struct rure_captures rure_captures;
typedef struct rure_iter rure_iter;
typedef struct rure_iter_capture_names rure_iter_capture_names;
typedef struct rure_error rure_error;

/* A match as a half-open byte range of the haystack. */
typedef struct rure_match {
    size_t start;
    size_t end;
} rure_match;

/* Compile flags accepted by rure_compile (bit values fixed by rure). */
enum {
    GOPI_RURE_FLAG_CASEI = 1 << 0,
    GOPI_RURE_FLAG_MULTI = 1 << 1,
    GOPI_RURE_FLAG_DOTNL = 1 << 2,
    GOPI_RURE_FLAG_SWAP_GREED = 1 << 3,
    GOPI_RURE_FLAG_SPACE = 1 << 4,
    GOPI_RURE_FLAG_UNICODE = 1 << 5
};

rure *rure_compile(const uint8_t *pattern, size_t length, uint32_t flags,
                   rure_options *options, rure_error *error);
void rure_free(rure *re);
bool rure_is_match(rure *re, const uint8_t *haystack, size_t length, size_t start);
bool rure_find(rure *re, const uint8_t *haystack, size_t length, size_t start,
               rure_match *match);
bool rure_find_captures(rure *re, const uint8_t *haystack, size_t length,
                        size_t start, rure_captures *captures);
int32_t rure_capture_name_index(rure *re, const char *name);

rure_iter_capture_names *rure_iter_capture_names_new(rure *re);
void rure_iter_capture_names_free(rure_iter_capture_names *it);
bool rure_iter_capture_names_next(rure_iter_capture_names *it, char **name);

rure_iter *rure_iter_new(rure *re);
void rure_iter_free(rure_iter *it);
bool rure_iter_next(rure_iter *it, const uint8_t *haystack, size_t length,
                    rure_match *match);
bool rure_iter_next_captures(rure_iter *it, const uint8_t *haystack,
                             size_t length, rure_captures *captures);

rure_captures *rure_captures_new(rure *re);
void rure_captures_free(rure_captures *captures);
bool rure_captures_at(rure_captures *captures, size_t i, rure_match *match);
size_t rure_captures_len(rure_captures *captures);

rure_options *rure_options_new(void);
void rure_options_free(rure_options *options);
void rure_options_size_limit(rure_options *options, size_t limit);
void rure_options_dfa_size_limit(rure_options *options, size_t limit);

rure_error *rure_error_new(void);
void rure_error_free(rure_error *err);
/* The returned text is owned by err and valid until err is freed. */
const char *rure_error_message(rure_error *err);

/* ---- gopi: shared ------------------------------------------------------- */

/* Number of gopi_ objects and strings currently owned by callers. */
int64_t gopi_native_live_objects(void);
/* Frees a string returned by a gopi_ function; NULL is ignored. */
void gopi_string_free(char *s);
/* Panics inside the guard on purpose; returns -1 and sets *err. */
int32_t gopi_native_test_panic(char **err);

/* Re-parses a pattern rure_compile rejected (same flags). 1: syntax error,
 * *pos = byte offset, *msg = description (free with gopi_string_free);
 * 0: it parses, nothing allocated; -1: internal failure, *msg set. */
int32_t gopi_regex_syntax_error(const uint8_t *pattern, size_t length,
                                uint32_t flags, int64_t *pos, char **msg);

/* ---- gopi: line matcher ------------------------------------------------- */

typedef struct gopi_line_matcher gopi_line_matcher;

enum {
    GOPI_LINE_CASEI = 1 << 0,          /* case-insensitive */
    GOPI_LINE_MULTILINE = 1 << 1,      /* matches may span lines */
    GOPI_LINE_NO_ASCII_VARIANT = 1 << 2, /* tests/benchmarks only */
    GOPI_LINE_NO_INNER_LITERAL = 1 << 3  /* tests/benchmarks only */
};

enum {
    GOPI_DONE = 0,       /* finished, or hit limit reached */
    GOPI_FULL_HITS = 1,  /* grow the hit array, call again with the cursor */
    GOPI_FULL_SPANS = 2, /* grow the span array, call again with the cursor */
    GOPI_FAILED = -1     /* internal failure; *err describes it */
};

typedef struct gopi_line_options {
    uint32_t flags;          /* GOPI_LINE_* bits */
    uint64_t size_limit;     /* 0: default */
    uint64_t dfa_size_limit; /* 0: default */
} gopi_line_options;

/* Resume state of gopi_line_matcher_find; all zero at buffer start. */
typedef struct gopi_line_cursor {
    uint64_t pos;
    uint64_t line_off;
    uint64_t line_no;
    uint64_t spans_needed; /* set with GOPI_FULL_SPANS: the spans of the hit that did not fit */
} gopi_line_cursor;

/* One hit: 1-based first line, byte range of its line(s) without the final
 * '\n', and its matches as [span_lo, span_hi) of the caller's span list. */
typedef struct gopi_line_hit {
    int64_t line;
    int64_t start;
    int64_t end;
    int64_t span_lo;
    int64_t span_hi;
} gopi_line_hit;

typedef struct gopi_span {
    int64_t start;
    int64_t end;
} gopi_span;

/* NULL on error, with *err_pos (byte offset or -1) and *err_msg (free with
 * gopi_string_free) set. Free the matcher with gopi_line_matcher_free. */
gopi_line_matcher *gopi_line_matcher_new(const uint8_t *pattern, size_t length,
                                         const gopi_line_options *opts,
                                         int64_t *err_pos, char **err_msg);
void gopi_line_matcher_free(gopi_line_matcher *m);
int32_t gopi_line_matcher_has_ascii_variant(const gopi_line_matcher *m);
/* 1: a match can contain '\n' (multiline mode only); 0: not; -1: failure. */
int32_t gopi_line_matcher_crosses_lines(const gopi_line_matcher *m);
/* 1: some line matches; 0: none; -1: failure (*err set). */
int32_t gopi_line_matcher_is_match(const gopi_line_matcher *m, const uint8_t *buf,
                                   size_t length, char **err);
/* GOPI_DONE or GOPI_FAILED. */
int32_t gopi_line_matcher_count(const gopi_line_matcher *m, const uint8_t *buf,
                                size_t length, uint64_t *lines,
                                uint64_t *matches, char **err);
/* Matching lines only (each line searched up to its first match): GOPI_DONE
   or GOPI_FAILED. */
int32_t gopi_line_matcher_count_lines(const gopi_line_matcher *m,
                                      const uint8_t *buf, size_t length,
                                      uint64_t *lines, char **err);
/* first_only != 0: a line's search stops at its first match (one span per
   hit), for printers of whole lines. */
int32_t gopi_line_matcher_find(const gopi_line_matcher *m, const uint8_t *buf,
                               size_t length, gopi_line_cursor *cur,
                               int64_t max_hits, int32_t first_only,
                               gopi_line_hit *hits,
                               size_t hits_cap, size_t *hits_len,
                               gopi_span *spans, size_t spans_cap,
                               size_t *spans_len, int64_t span_base,
                               char **err);

/* ---- gopi: AST search and rewrite (ast-grep) ---------------------------- */

/* A compiled rule set for one language; safe to share between threads. */
typedef struct gopi_ast_matcher gopi_ast_matcher;
/* A cancel flag; setting it stops every search that was given it. */
typedef struct gopi_ast_cancel gopi_ast_cancel;
/* A parse cache (gopi_ast_cache_new); safe to share between threads. */
typedef struct gopi_ast_cache gopi_ast_cache;

enum {
    GOPI_AST_CAPTURES = 1 << 0,    /* report captured metavariables */
    GOPI_AST_EDITS = 1 << 1,       /* compute the edits of rewrite rules */
    GOPI_AST_NO_PREFILTER = 1 << 2 /* parse even files the literal filter rules out */
};

enum {
    GOPI_AST_DONE = 0,
    GOPI_AST_CANCELLED = 1,
    GOPI_AST_TIMEOUT = 2
};

typedef struct gopi_ast_search_options {
    uint64_t max_file_size; /* files larger than this are not read; 0: no limit */
    int64_t timeout_ms;     /* 0: no timeout */
    uint32_t flags;         /* GOPI_AST_* bits */
    const gopi_ast_cache *cache; /* parse cache for files read from disk; NULL: none */
} gopi_ast_search_options;

/* Wire formats (little endian; str = u32 length + bytes) are documented in
 * native/src/ast/encode.rs. rules: u32 n, then per rule str pattern,
 * u8 has_rewrite, str rewrite, str config. A non-empty config is one
 * ast-grep rule document (YAML or JSON, as `sg scan` reads it: rule,
 * constraints, utils, transform, rewriters, fix and the metadata keys;
 * its language must be the matcher's; files/ignores are refused) run by
 * ast-grep's rule engine (ast-grep-config): pattern, rewrite and the
 * strictness do not apply to it, the literal prefilter uses only the
 * plain-string patterns the matched node itself must match (rule.pattern,
 * those in rule.all), and its edits are its fix (the first, for a list) over the
 * range sg scan --update-all replaces. strictness: 0 smart, 1 cst, 2 ast,
 * 3 relaxed, 4 signature, 5 template. NULL on error with *err_rule (rule
 * index or -1) and *err (free with gopi_string_free). */
gopi_ast_matcher *gopi_ast_matcher_new(const uint8_t *lang, size_t lang_len,
                                       const uint8_t *rules, size_t rules_len,
                                       uint32_t strictness, int32_t *err_rule,
                                       char **err);
void gopi_ast_matcher_free(gopi_ast_matcher *m);
/* One line per parse of each rule: "rule\troot-kind\tliteral,..."
 * (identifier literals, which no word character may follow, appear as NAME\b;
 * a rule-engine rule has one line whose root-kind is the kinds it can match,
 * joined by '|', and no literal).
 * Free with gopi_string_free; NULL on failure (*err set). */
char *gopi_ast_matcher_describe(const gopi_ast_matcher *m, char **err);
/* Comma-separated canonical names of the linked grammars (gopi_string_free). */
char *gopi_ast_languages(void);

gopi_ast_cancel *gopi_ast_cancel_new(void);
void gopi_ast_cancel_set(const gopi_ast_cancel *c);
void gopi_ast_cancel_free(gopi_ast_cancel *c);

/* Searches a batch (inputs: u32 n, then per input u8 kind (0 path,
 * 1 buffer), str name, and for buffers u64 length + bytes). Returns
 * GOPI_AST_DONE/CANCELLED/TIMEOUT with *out (free with gopi_ast_buffer_free)
 * holding one record per input, or -1 with *err set. */
int32_t gopi_ast_search(const gopi_ast_matcher *m, const uint8_t *inputs,
                        size_t inputs_len, const gopi_ast_search_options *opts,
                        const gopi_ast_cancel *cancel, uint8_t **out,
                        size_t *out_len, char **err);
void gopi_ast_buffer_free(uint8_t *p, size_t len);

/* What a caller saw of a file before reading it: size, modification time
 * (has_mtime 0: unknown), inode, device, status-change time (has_ctime 0:
 * unknown; on Unix the library's own stamps have one, so a stamp without
 * it never matches theirs). */
typedef struct gopi_ast_stamp {
    uint64_t size;
    int64_t mtime_sec;
    uint32_t mtime_nsec;
    uint32_t has_mtime;
    uint64_t ino;
    uint64_t dev;
    int64_t ctime_sec;
    uint32_t ctime_nsec;
    uint32_t has_ctime;
} gopi_ast_stamp;

enum {
    GOPI_AST_OUTLINE_OK = 0,
    GOPI_AST_OUTLINE_SYNTAX = 1,      /* the source has syntax errors */
    GOPI_AST_OUTLINE_CANCELLED = 2,
    GOPI_AST_OUTLINE_UNSUPPORTED = 3, /* no outline for the language */
    GOPI_AST_OUTLINE_NOT_UTF8 = 4
};

/* The function bodies of data parsed as lang, for the read tool's
 * structural summaries: *out (free with gopi_ast_buffer_free) holds u32 n,
 * then per body u32 first, u32 last (1-based lines, inclusive), bodies of
 * at least min_lines lines, in file order, none inside another. With a
 * cache, path_len > 0 and a stamp (taken before data was read) the tree
 * goes through that cache. Returns GOPI_AST_OUTLINE_*, or -1 with *err. */
int32_t gopi_ast_outline(const uint8_t *lang, size_t lang_len,
                         const uint8_t *path, size_t path_len,
                         const gopi_ast_stamp *stamp, const uint8_t *data,
                         size_t data_len, uint32_t min_lines,
                         const gopi_ast_cache *cache,
                         const gopi_ast_cancel *cancel, uint8_t **out,
                         size_t *out_len, char **err);

/* Parse caches, one per owner (used by searches whose options name one,
 * and by outlines given one): new with a byte budget (0: off), free once
 * unused, budget (0: off and emptied), invalidation of a path and
 * everything under it (len 0: everything), and counters (pointers may be
 * NULL). */
gopi_ast_cache *gopi_ast_cache_new(uint64_t bytes);
void gopi_ast_cache_free(gopi_ast_cache *c);
void gopi_ast_cache_set_budget(const gopi_ast_cache *c, uint64_t bytes);
void gopi_ast_cache_invalidate(const gopi_ast_cache *c, const uint8_t *path,
                               size_t len);
void gopi_ast_cache_stats(const gopi_ast_cache *c, uint64_t *entries,
                          uint64_t *bytes, uint64_t *hits, uint64_t *misses);

#ifdef __cplusplus
}
#endif

#endif /* GOPI_NATIVE_H */
