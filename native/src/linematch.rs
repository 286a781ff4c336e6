//! The batch line matcher behind gopi's grep.
//!
//! Calling a regex once per match through cgo costs far more than the search
//! itself on typical source files. Instead the Go side hands over a whole
//! buffer and this module reports, in one call, every line holding at least
//! one match together with all of that line's match spans, written straight
//! into arrays the caller owns.
//!
//! Semantics follow ripgrep:
//!
//! * The pattern is compiled with multi-line anchors: `^`/`$` match at line
//!   boundaries.
//! * Without `MULTILINE`, a match never contains `\n`: every class loses its
//!   `\n`, a written `\n` literal is a compile error, and `\A`/`\z` become
//!   line anchors, so the whole buffer is searched in one pass yet each line
//!   behaves as if searched on its own.
//! * Matches are leftmost-first and non-overlapping, empty matches included,
//!   stepping over an empty match that abuts the previous match. As with
//!   `regex::bytes` (and so ripgrep), an empty match may fall anywhere, even
//!   inside a UTF-8 sequence or next to an invalid byte: were empty matches
//!   kept to character boundaries, `^` could never match at the start of a
//!   line that begins with a stray continuation byte such as `0xA6`.
//! * A buffer's lines are split by `\n`; a last line without `\n` counts, the
//!   empty "line" after a final `\n` does not, and an empty buffer has none.
//! * A match belongs to every line it covers (a final `\n` belongs to the
//!   line it ends). Matches that share a line are reported as one hit.
//!
//! Output protocol of [`gopi_line_matcher_find`]: the caller passes free
//! space for hits and spans plus a cursor. Only complete hits are written.
//! When a hit does not fit, the call returns `GOPI_FULL_HITS` or
//! `GOPI_FULL_SPANS` after storing in the cursor where that hit began; the
//! caller grows its arrays and calls again with the same cursor, and the
//! search resumes at that hit's first match. Resuming there is exact: a
//! leftmost-first search started at a match's start finds that same match,
//! and hits start strictly after the previous hit's last match.
use std::ffi::c_char;
use std::panic::{RefUnwindSafe, UnwindSafe};

use memchr::{memchr, memchr_iter, memrchr};
use regex_automata::meta;
use regex_automata::nfa::thompson::WhichCaptures;
use regex_automata::util::iter::Searcher;
use regex_automata::util::pool::Pool;
use regex_automata::util::prefilter::Prefilter;
use regex_automata::Input;
use regex_syntax::hir::Hir;

use crate::ffi::{bytes, free_boxed, guard, into_raw, set_message};
use crate::syntax::{self, ParseFlags};

/// Option bit: case-insensitive matching.
pub const LINE_CASEI: u32 = 1 << 0;
/// Option bit: matches may span lines (`\n` stays in classes and literals).
pub const LINE_MULTILINE: u32 = 1 << 1;
/// Option bit: never build the ASCII word-boundary variant (tests and
/// benchmarks use it to compare the two paths).
pub const LINE_NO_ASCII_VARIANT: u32 = 1 << 2;
/// Option bit: never use the required-literal line prefilter (tests and
/// benchmarks use it to compare the two paths).
pub const LINE_NO_INNER_LITERAL: u32 = 1 << 3;

/// Return code: the search finished (or reached the hit limit).
pub const GOPI_DONE: i32 = 0;
/// Return code: no room for the next hit; grow the hit array and resume.
pub const GOPI_FULL_HITS: i32 = 1;
/// Return code: no room for the next span; grow the span array and resume.
pub const GOPI_FULL_SPANS: i32 = 2;
/// Return code: internal failure (a caught panic); see the error message.
pub const GOPI_FAILED: i32 = -1;

/// Defaults matching the `regex` crate's.
const DEFAULT_SIZE_LIMIT: usize = 10 << 20;
const DEFAULT_DFA_SIZE_LIMIT: usize = 2 << 20;

/// Compile options as passed from C.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct LineOptions {
    /// `LINE_*` bits.
    pub flags: u32,
    /// NFA size limit in bytes; 0 means the default (10 MiB).
    pub size_limit: u64,
    /// Lazy DFA cache capacity in bytes; 0 means the default (2 MiB).
    pub dfa_size_limit: u64,
}

/// Resume state of a find call, owned by the caller. All zero means "start
/// of the buffer".
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Cursor {
    /// Offset where the next search starts.
    pub pos: u64,
    /// Offset of a line start whose line number is known (`line_no`).
    pub line_off: u64,
    /// 1-based number of the line starting at `line_off`; 0 means 1.
    pub line_no: u64,
    /// Set with `GOPI_FULL_SPANS`: how many spans the hit that did not fit
    /// holds, so that the caller grows its array once to fit it (a line
    /// can hold millions of matches). Ignored on input.
    pub spans_needed: u64,
}

/// One reported hit; layout shared with Go's `LineHit` (five 64-bit ints).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hit {
    pub line: i64,
    pub start: i64,
    pub end: i64,
    pub span_lo: i64,
    pub span_hi: i64,
}

/// One match; layout shared with Go's `Span`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Span {
    pub start: i64,
    pub end: i64,
}

type CacheFn = Box<dyn Fn() -> meta::Cache + Send + Sync + UnwindSafe + RefUnwindSafe>;

/// A compiled regex plus its own pool of search caches, so one search call
/// borrows a cache once instead of once per match. Both are safe to share
/// between threads.
struct Engine {
    re: meta::Regex,
    caches: Pool<meta::Cache, CacheFn>,
}

impl Engine {
    fn build(hir: &Hir, opts: &LineOptions) -> Result<Engine, String> {
        let size = match opts.size_limit {
            0 => DEFAULT_SIZE_LIMIT,
            n => n as usize,
        };
        let dfa = match opts.dfa_size_limit {
            0 => DEFAULT_DFA_SIZE_LIMIT,
            n => n as usize,
        };
        // Empty matches are not held to UTF-8 boundaries, as in
        // `regex::bytes`: see the module docs.
        let config = meta::Config::new()
            .utf8_empty(false)
            .which_captures(WhichCaptures::Implicit)
            .nfa_size_limit(Some(size))
            .onepass_size_limit(Some(size))
            .dfa_size_limit(Some(dfa))
            .hybrid_cache_capacity(dfa);
        let re = meta::Builder::new()
            .configure(config)
            .build_from_hir(hir)
            .map_err(|e| match e.size_limit() {
                Some(limit) => format!("compiled regex exceeds size limit of {limit} bytes"),
                None => e.to_string(),
            })?;
        let for_pool = re.clone();
        let create: CacheFn = Box::new(move || for_pool.create_cache());
        Ok(Engine {
            re,
            caches: Pool::new(create),
        })
    }
}

/// A compile failure: message and byte offset in the pattern when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    pub pos: Option<usize>,
    pub message: String,
}

/// A compiled line matcher; immutable and shareable across threads.
pub struct LineMatcher {
    general: Engine,
    /// The same regex with ASCII word boundaries, used on pure-ASCII buffers
    /// (only built when the pattern has Unicode word boundaries).
    ascii: Option<Engine>,
    /// Finds lines that can hold a match (line mode only); see innerlit.
    lines: LineFilter,
    multiline: bool,
    /// Multiline mode only: some match can contain a `\n`.
    crosses_lines: bool,
}

/// Which lines the regex needs to see in line mode (see innerlit).
enum LineFilter {
    /// Every line.
    All,
    /// Lines holding one of the pattern's required literals.
    Literal(Prefilter),
    /// Lines holding a byte of 0x80 or above.
    NonAscii,
}

/// Where output goes while scanning.
trait Sink {
    /// Records one match of the hit being built; false when out of room.
    fn span(&mut self, start: usize, end: usize) -> bool;
    /// Records a completed hit; false when out of room.
    fn hit(&mut self, hit: &Pending, buf: &[u8]) -> bool;
    /// Whether the sink needs only the first match of each line (line mode):
    /// the scan then goes on after the line instead of searching the rest.
    fn first_match_only(&self) -> bool {
        false
    }
}

/// The hit being assembled.
struct Pending {
    line: u64,
    line_start: usize,
    /// Offset of the '\n' ending the hit's last line (or the buffer length).
    line_end: usize,
    first_match: usize,
}

/// A stretch of the buffer searched with one engine: the span
/// `start..end`, after which the scan continues at `next` (if any).
struct Segment<'a> {
    engine: &'a Engine,
    start: usize,
    end: usize,
    next: Option<usize>,
    /// The engine is chosen per window (candidate line) instead: `engine`
    /// (the ASCII variant) for a window whose bytes and neighbours are
    /// ASCII, the general regex otherwise.
    per_window: bool,
}

/// ASCII stretches shorter than this (in bytes) between non-ASCII lines
/// stay with the general regex: restarting a search costs more than the
/// ASCII regex would save on them.
const MIN_ASCII_RUN: usize = 64;

/// Returns the offset of the first non-ASCII byte of `buf` at or after
/// `from`. Checks 512-byte blocks with the vectorised `is_ascii` first.
fn first_non_ascii(buf: &[u8], from: usize) -> Option<usize> {
    const BLOCK: usize = 512;
    let mut i = from;
    while i + BLOCK <= buf.len() {
        if !buf[i..i + BLOCK].is_ascii() {
            break;
        }
        i += BLOCK;
    }
    buf[i..].iter().position(|&b| b >= 0x80).map(|j| i + j)
}

/// How a scan ended.
enum Scan {
    Done,
    Full(Cursor),
}

impl LineMatcher {
    /// Compiles `pattern` with `LINE_*` option bits.
    pub fn new(pattern: &[u8], opts: &LineOptions) -> Result<LineMatcher, CompileError> {
        let multiline = opts.flags & LINE_MULTILINE != 0;
        let flags = ParseFlags {
            case_insensitive: opts.flags & LINE_CASEI != 0,
            multi_line: true,
            unicode: true,
            ..Default::default()
        };
        let (ast, hir) = syntax::parse(pattern, flags).map_err(|e| CompileError {
            pos: Some(e.pos),
            message: e.message,
        })?;
        let crosses_lines = multiline && syntax::can_match_byte(&hir, b'\n');
        let hir = if multiline {
            hir
        } else {
            if let Some(pos) = syntax::find_newline_literal(&ast) {
                return Err(CompileError {
                    pos: Some(pos),
                    message: "the literal '\\n' is not allowed unless matches may span lines"
                        .to_string(),
                });
            }
            syntax::strip_newlines(hir)
        };
        let compile_err = |message| CompileError { pos: None, message };
        let general = Engine::build(&hir, opts).map_err(compile_err)?;
        let ascii = if opts.flags & LINE_NO_ASCII_VARIANT != 0 {
            None
        } else {
            match syntax::ascii_word_boundaries(&hir) {
                Some(h) => Some(Engine::build(&h, opts).map_err(compile_err)?),
                None => None,
            }
        };
        let lines = if multiline || opts.flags & LINE_NO_INNER_LITERAL != 0 {
            LineFilter::All
        } else if let Some(pre) = crate::innerlit::inner_prefilter(&hir) {
            LineFilter::Literal(pre)
        } else if let Some(pre) = ascii
            .as_ref()
            .and_then(|_| crate::innerlit::prefix_prefilter(&hir))
        {
            LineFilter::Literal(pre)
        } else if crate::innerlit::needs_non_ascii(&hir) {
            LineFilter::NonAscii
        } else {
            LineFilter::All
        };
        Ok(LineMatcher {
            general,
            ascii,
            lines,
            multiline,
            crosses_lines,
        })
    }

    /// Reports whether a match can contain a line terminator, which only
    /// happens in multiline mode for a pattern that can match `\n` (a class
    /// or literal holding it, `(?s).`, `\s`, ...). ripgrep's `--count`
    /// counts matches rather than lines for such searches.
    pub fn crosses_lines(&self) -> bool {
        self.crosses_lines
    }

    /// Reports whether any line of `buf` has a match, stopping at the
    /// first match.
    pub fn is_match(&self, buf: &[u8]) -> bool {
        struct First(bool);
        impl Sink for First {
            fn span(&mut self, _: usize, _: usize) -> bool {
                self.0 = true;
                false // stop here
            }
            fn hit(&mut self, _: &Pending, _: &[u8]) -> bool {
                true
            }
        }
        let mut first = First(false);
        self.scan(buf, Cursor::default(), 0, &mut first);
        first.0
    }

    /// Scans `buf` from `cur`, feeding matches and hits to `sink`, stopping
    /// after `max_hits` hits when it is not 0.
    fn scan<S: Sink>(&self, buf: &[u8], cur: Cursor, max_hits: u64, sink: &mut S) -> Scan {
        let len = buf.len();
        let pos = cur.pos as usize;
        if len == 0 || pos > len {
            return Scan::Done;
        }
        // The empty "line" after a final '\n' is not a line.
        let phantom = if buf[len - 1] == b'\n' {
            len
        } else {
            usize::MAX
        };
        let (mut count_off, mut line_no) = match cur.line_no {
            0 => (0, 1),
            n => (cur.line_off as usize, n),
        };
        // Lines before `floor` are done: searching back for a line start
        // never goes below it, which keeps the whole scan linear.
        let mut floor = count_off;
        let mut pending: Option<Pending> = None;
        let mut emitted = 0u64;
        let full = |p: &Pending| {
            Scan::Full(Cursor {
                pos: p.first_match as u64,
                line_off: p.line_start as u64,
                line_no: p.line,
                spans_needed: 0,
            })
        };
        let mut seg_start = pos;
        let mut line_of_start = count_off; // start of the line holding seg_start
        loop {
            let seg = self.segment(buf, seg_start, line_of_start);
            let mut cache = seg.engine.caches.get();
            let mut general_cache = None; // taken when a window needs it (per_window)
            let mut window_start = seg.start;
            while let Some((ws, we)) = self.window(buf, window_start, seg.end) {
                window_start = we + 1;
                // The window and the bytes either side of it (look-arounds
                // see them) decide between the two word-boundary forms.
                let (engine, cache) =
                    if seg.per_window && !buf[ws.saturating_sub(1)..(we + 1).min(len)].is_ascii() {
                        let g = general_cache.get_or_insert_with(|| self.general.caches.get());
                        (&self.general, &mut **g)
                    } else {
                        (seg.engine, &mut *cache)
                    };
                let mut searcher = Searcher::new(Input::new(buf).span(ws..we));
                while let Some(m) =
                    searcher.advance(|input| Ok(engine.re.search_with(cache, input)))
                {
                    let (s, e) = (m.start(), m.end());
                    if s == phantom {
                        break;
                    }
                    // The match's last byte; a final '\n' belongs to the line it ends.
                    let last = if e > s { e - 1 } else { s };
                    if let Some(p) = pending.as_mut() {
                        if s <= p.line_end {
                            // Starts on the pending hit's last line: same hit.
                            if last > p.line_end {
                                p.line_end = memchr(b'\n', &buf[last..]).map_or(len, |i| last + i);
                            }
                            if !sink.span(s, e) {
                                return full(p);
                            }
                            continue;
                        }
                        if !sink.hit(p, buf) {
                            return full(p);
                        }
                        emitted += 1;
                        if max_hits != 0 && emitted >= max_hits {
                            return Scan::Done;
                        }
                        floor = p.line_end + 1;
                    }
                    let line_start =
                        memrchr(b'\n', &buf[floor..s]).map_or(floor, |i| floor + i + 1);
                    let line_end = memchr(b'\n', &buf[last..]).map_or(len, |i| last + i);
                    line_no += memchr_iter(b'\n', &buf[count_off..line_start]).count() as u64;
                    count_off = line_start;
                    let p = Pending {
                        line: line_no,
                        line_start,
                        line_end,
                        first_match: s,
                    };
                    if !sink.span(s, e) {
                        return full(&p);
                    }
                    pending = Some(p);
                    if !self.multiline && sink.first_match_only() {
                        // The rest of the line cannot add a hit.
                        if line_end + 1 > we {
                            break;
                        }
                        searcher = Searcher::new(Input::new(buf).span(line_end + 1..we));
                    }
                }
                if window_start > seg.end {
                    break;
                }
            }
            match seg.next {
                Some(next) if next < len => {
                    seg_start = next;
                    line_of_start = next;
                }
                _ => break,
            }
        }
        if let Some(p) = pending {
            if !sink.hit(&p, buf) {
                return full(&p);
            }
        }
        Scan::Done
    }

    /// Returns the next part of the segment `from..end` to run the regex
    /// on. Without a line filter that is the whole rest of the segment,
    /// ending at `end`. With one it is the next line the filter lets
    /// through (from `from`, or from that line's start if later, to just
    /// before its '\n'), or `None` when no line left in the segment passes.
    /// The caller continues after the returned end, so each byte is
    /// searched at most once.
    fn window(&self, buf: &[u8], from: usize, end: usize) -> Option<(usize, usize)> {
        if from > end {
            return None;
        }
        let (found_start, found_end) = match &self.lines {
            LineFilter::All => return Some((from, end)),
            LineFilter::Literal(pre) => {
                let span = pre.find(buf, regex_automata::Span::from(from..end))?;
                (span.start, span.end)
            }
            LineFilter::NonAscii => {
                let at = first_non_ascii(&buf[..end], from)?;
                (at, at + 1)
            }
        };
        let line_start = memrchr(b'\n', &buf[from..found_start]).map_or(from, |i| from + i + 1);
        let line_end = memchr(b'\n', &buf[found_end..end]).map_or(end, |i| found_end + i);
        Some((line_start, line_end))
    }

    /// Picks the next stretch of `buf` to search, from `start` (on the line
    /// beginning at `line_start`), and the engine for it.
    ///
    /// Without an ASCII variant, or in multiline mode (where matches cross
    /// lines), that is all the rest of the buffer with one engine. Otherwise
    /// the buffer is cut at line boundaries into runs of pure-ASCII lines,
    /// searched with the ASCII word-boundary regex, and runs holding
    /// non-ASCII text, searched with the general one. This is exact because
    /// a line-by-line match never crosses a '\n', the two word-boundary
    /// forms agree wherever both neighbouring bytes are ASCII, and a run
    /// ends at (and includes) its last '\n', so look-arounds at run edges
    /// only see ASCII. It matters because the general regex's lazy DFA
    /// gives up on Unicode word boundaries at the first non-ASCII byte, and
    /// the slower fallback then runs to the end of its search span: cutting
    /// keeps that fallback to the lines that need it.
    fn segment(&self, buf: &[u8], start: usize, line_start: usize) -> Segment<'_> {
        let len = buf.len();
        let ascii = match &self.ascii {
            Some(a) if !self.multiline => a,
            Some(a) if buf.is_ascii() => a,
            _ => {
                return Segment {
                    engine: &self.general,
                    start,
                    end: len,
                    next: None,
                    per_window: false,
                }
            }
        };
        if matches!(self.lines, LineFilter::Literal(_)) {
            // Only the lines the literal filter lets through are searched:
            // classifying them one by one costs less than scanning the
            // whole buffer for non-ASCII bytes first (4 % of a search of
            // GOROOT for `\bfmt\.Errorf\b`).
            return Segment {
                engine: ascii,
                start,
                end: len,
                next: None,
                per_window: true,
            };
        }
        let Some(bad) = first_non_ascii(buf, line_start) else {
            return Segment {
                engine: ascii,
                start,
                end: len,
                next: None,
                per_window: false,
            };
        };
        // Line start of the first non-ASCII byte.
        let bad_line =
            memrchr(b'\n', &buf[line_start..bad]).map_or(line_start, |i| line_start + i + 1);
        if bad_line > start {
            // ASCII lines up to (and including the '\n' before) bad_line.
            return Segment {
                engine: ascii,
                start,
                end: bad_line - 1,
                next: Some(bad_line),
                per_window: false,
            };
        }
        // Non-ASCII lines, absorbing ASCII stretches too short to pay for a
        // switch of engine.
        let mut end = memchr(b'\n', &buf[bad..]).map_or(len, |i| bad + i);
        while end < len {
            match first_non_ascii(buf, end) {
                Some(b) if b - end < MIN_ASCII_RUN => {
                    end = memchr(b'\n', &buf[b..]).map_or(len, |i| b + i);
                }
                _ => break,
            }
        }
        Segment {
            engine: &self.general,
            start,
            end,
            next: Some(end + 1),
            per_window: false,
        }
    }

    /// Counts matching lines (each line once, however many hits or matches
    /// cover it) and matches in `buf`.
    pub fn count(&self, buf: &[u8]) -> (u64, u64) {
        struct Counter {
            multiline: bool,
            lines: u64,
            matches: u64,
        }
        impl Sink for Counter {
            fn span(&mut self, _: usize, _: usize) -> bool {
                self.matches += 1;
                true
            }
            fn hit(&mut self, p: &Pending, buf: &[u8]) -> bool {
                self.lines += 1;
                if self.multiline {
                    let inner = &buf[p.line_start..p.line_end];
                    self.lines += memchr_iter(b'\n', inner).count() as u64;
                }
                true
            }
        }
        let mut c = Counter {
            multiline: self.multiline,
            lines: 0,
            matches: 0,
        };
        self.scan(buf, Cursor::default(), 0, &mut c);
        (c.lines, c.matches)
    }

    /// Counts matching lines only: each line is searched up to its first
    /// match (what `-c` prints), which saves the search of the rest of a
    /// matching line. In multiline mode it is `count`'s line total.
    pub fn count_lines(&self, buf: &[u8]) -> u64 {
        if self.multiline {
            return self.count(buf).0;
        }
        struct Lines(u64);
        impl Sink for Lines {
            fn span(&mut self, _: usize, _: usize) -> bool {
                true
            }
            fn hit(&mut self, _: &Pending, _: &[u8]) -> bool {
                self.0 += 1;
                true
            }
            fn first_match_only(&self) -> bool {
                true
            }
        }
        let mut c = Lines(0);
        self.scan(buf, Cursor::default(), 0, &mut c);
        c.0
    }

    /// Finds hits into caller-provided arrays; see the module docs for the
    /// protocol. Returns the status code, the hits and spans written.
    ///
    /// With `first_only`, a line's search stops at its first match (line
    /// mode): each hit then has one span, which is all a printer of whole
    /// lines needs (for a column), and the rest of the line is not searched.
    #[allow(clippy::too_many_arguments)]
    pub fn find(
        &self,
        buf: &[u8],
        cur: &mut Cursor,
        max_hits: u64,
        first_only: bool,
        hits: &mut [Hit],
        spans: &mut [Span],
        span_base: i64,
    ) -> (i32, usize, usize) {
        struct Out<'a> {
            hits: &'a mut [Hit],
            spans: &'a mut [Span],
            nhits: usize,
            nspans: usize,
            committed: usize,
            span_base: i64,
            status: i32,
            first_only: bool,
            /// Spans of the unfinished hit past the end of `spans`: once
            /// they no longer fit, the rest of the hit is only counted.
            overflow: u64,
        }
        impl Sink for Out<'_> {
            fn first_match_only(&self) -> bool {
                self.first_only
            }
            fn span(&mut self, start: usize, end: usize) -> bool {
                if self.nspans == self.spans.len() {
                    self.status = GOPI_FULL_SPANS;
                    self.overflow += 1;
                    return true;
                }
                self.spans[self.nspans] = Span {
                    start: start as i64,
                    end: end as i64,
                };
                self.nspans += 1;
                true
            }
            fn hit(&mut self, p: &Pending, _: &[u8]) -> bool {
                if self.overflow > 0 {
                    return false; // its spans are all counted: resume at its start
                }
                if self.nhits == self.hits.len() {
                    self.status = GOPI_FULL_HITS;
                    return false;
                }
                self.hits[self.nhits] = Hit {
                    line: p.line as i64,
                    start: p.line_start as i64,
                    end: p.line_end as i64,
                    span_lo: self.span_base + self.committed as i64,
                    span_hi: self.span_base + self.nspans as i64,
                };
                self.nhits += 1;
                self.committed = self.nspans;
                true
            }
        }
        let mut out = Out {
            hits,
            spans,
            nhits: 0,
            nspans: 0,
            committed: 0,
            span_base,
            status: GOPI_DONE,
            first_only,
            overflow: 0,
        };
        match self.scan(buf, *cur, max_hits, &mut out) {
            Scan::Done => (GOPI_DONE, out.nhits, out.nspans),
            Scan::Full(mut next) => {
                if out.status == GOPI_FULL_SPANS {
                    next.spans_needed = (out.nspans - out.committed) as u64 + out.overflow;
                }
                *cur = next;
                // Spans of the unfinished hit are written again on resume.
                (out.status, out.nhits, out.committed)
            }
        }
    }
}

/// Compiles a line matcher. On success returns an object the caller owns
/// and frees with `gopi_line_matcher_free`. On failure returns null, sets
/// `*err_pos` to the byte offset of the problem in the pattern (or -1) and
/// `*err_msg` to a string the caller frees with `gopi_string_free`.
///
/// # Safety
/// `pattern` must point to `len` readable bytes (or be null when `len` is
/// 0), `opts` must be valid or null, and the out pointers valid or null.
#[no_mangle]
pub unsafe extern "C" fn gopi_line_matcher_new(
    pattern: *const u8,
    len: usize,
    opts: *const LineOptions,
    err_pos: *mut i64,
    err_msg: *mut *mut c_char,
) -> *mut LineMatcher {
    guard(err_msg, std::ptr::null_mut(), || {
        let opts = if opts.is_null() {
            LineOptions::default()
        } else {
            *opts
        };
        match LineMatcher::new(bytes(pattern, len), &opts) {
            Ok(m) => into_raw(m),
            Err(e) => {
                if !err_pos.is_null() {
                    *err_pos = e.pos.map_or(-1, |p| p as i64);
                }
                set_message(err_msg, &e.message);
                std::ptr::null_mut()
            }
        }
    })
}

/// Frees a line matcher. Null is ignored.
///
/// # Safety
/// `m` must be null or a matcher from `gopi_line_matcher_new` not yet
/// freed and no longer in use by any thread.
#[no_mangle]
pub unsafe extern "C" fn gopi_line_matcher_free(m: *mut LineMatcher) {
    guard(std::ptr::null_mut(), (), || free_boxed(m))
}

/// Reports 1 when the matcher carries an ASCII word-boundary variant, 0
/// when not, -1 on failure.
///
/// # Safety
/// `m` must be a live matcher.
#[no_mangle]
pub unsafe extern "C" fn gopi_line_matcher_has_ascii_variant(m: *const LineMatcher) -> i32 {
    guard(std::ptr::null_mut(), -1, || i32::from((*m).ascii.is_some()))
}

/// Returns 1 when a match can contain `\n` (see
/// [`LineMatcher::crosses_lines`]), 0 when not, -1 on failure.
///
/// # Safety
/// `m` must be a live matcher.
#[no_mangle]
pub unsafe extern "C" fn gopi_line_matcher_crosses_lines(m: *const LineMatcher) -> i32 {
    guard(std::ptr::null_mut(), -1, || i32::from((*m).crosses_lines()))
}

/// Returns 1 when some line of the buffer matches, 0 when none does, and -1
/// on failure with the description in `*err` (caller frees it).
///
/// # Safety
/// `m` must be a live matcher, `buf` point to `len` readable bytes (or be
/// null when `len` is 0), `err` be valid or null.
#[no_mangle]
pub unsafe extern "C" fn gopi_line_matcher_is_match(
    m: *const LineMatcher,
    buf: *const u8,
    len: usize,
    err: *mut *mut c_char,
) -> i32 {
    guard(err, GOPI_FAILED, || {
        i32::from((*m).is_match(bytes(buf, len)))
    })
}

/// Counts the matching lines and the matches of a buffer into `*lines` and
/// `*matches`. Returns 0, or -1 on failure with the description in `*err`.
///
/// # Safety
/// As for `gopi_line_matcher_is_match`; `lines` and `matches` valid.
#[no_mangle]
pub unsafe extern "C" fn gopi_line_matcher_count(
    m: *const LineMatcher,
    buf: *const u8,
    len: usize,
    lines: *mut u64,
    matches: *mut u64,
    err: *mut *mut c_char,
) -> i32 {
    guard(err, GOPI_FAILED, || {
        let (l, n) = (*m).count(bytes(buf, len));
        *lines = l;
        *matches = n;
        GOPI_DONE
    })
}

/// Counts the matching lines of a buffer into `*lines` (not the matches:
/// faster, see `LineMatcher::count_lines`). Returns 0, or -1 on failure
/// with the description in `*err`.
///
/// # Safety
/// As for `gopi_line_matcher_is_match`; `lines` valid.
#[no_mangle]
pub unsafe extern "C" fn gopi_line_matcher_count_lines(
    m: *const LineMatcher,
    buf: *const u8,
    len: usize,
    lines: *mut u64,
    err: *mut *mut c_char,
) -> i32 {
    guard(err, GOPI_FAILED, || {
        *lines = (*m).count_lines(bytes(buf, len));
        GOPI_DONE
    })
}

/// Writes the hits of `buf` into `hits[0..hits_cap]` and their matches into
/// `spans[0..spans_cap]`, starting at `*cur` (all zero for a new buffer) and
/// stopping after `max_hits` hits when it is positive. Span indexes in hits
/// are offset by `span_base`. Sets `*hits_len` and `*spans_len` to what was
/// written and returns `GOPI_DONE`, or `GOPI_FULL_HITS`/`GOPI_FULL_SPANS`
/// with `*cur` updated for the next call, or -1 on failure with the
/// description in `*err`. Nothing is retained after the call returns.
///
/// # Safety
/// `m` must be a live matcher; `buf` must point to `len` readable bytes (or
/// be null when `len` is 0); `hits`/`spans` must point to `hits_cap` and
/// `spans_cap` writable elements (or be null when the capacity is 0); the
/// remaining pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn gopi_line_matcher_find(
    m: *const LineMatcher,
    buf: *const u8,
    len: usize,
    cur: *mut Cursor,
    max_hits: i64,
    first_only: i32,
    hits: *mut Hit,
    hits_cap: usize,
    hits_len: *mut usize,
    spans: *mut Span,
    spans_cap: usize,
    spans_len: *mut usize,
    span_base: i64,
    err: *mut *mut c_char,
) -> i32 {
    guard(err, GOPI_FAILED, || {
        let hits: &mut [Hit] = if hits.is_null() || hits_cap == 0 {
            &mut []
        } else {
            std::slice::from_raw_parts_mut(hits, hits_cap)
        };
        let spans: &mut [Span] = if spans.is_null() || spans_cap == 0 {
            &mut []
        } else {
            std::slice::from_raw_parts_mut(spans, spans_cap)
        };
        let limit = if max_hits > 0 { max_hits as u64 } else { 0 };
        let (status, nh, ns) = (*m).find(
            bytes(buf, len),
            &mut *cur,
            limit,
            first_only != 0,
            hits,
            spans,
            span_base,
        );
        *hits_len = nh;
        *spans_len = ns;
        status
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (line, start, end, spans) of each hit.
    type TestHit = (i64, i64, i64, Vec<(i64, i64)>);

    fn find_all(pat: &str, flags: u32, buf: &str) -> Vec<TestHit> {
        find_some(pat, flags, buf, false)
    }

    /// find_all, or with `first_only` only the first match of each line.
    fn find_some(pat: &str, flags: u32, buf: &str, first_only: bool) -> Vec<TestHit> {
        let m = LineMatcher::new(
            pat.as_bytes(),
            &LineOptions {
                flags,
                ..Default::default()
            },
        )
        .unwrap();
        // Tiny arrays force the resume path.
        let mut out = Vec::new();
        let mut all_spans = Vec::new();
        let mut cur = Cursor::default();
        let (mut hcap, mut scap) = (1, 1);
        // (start of the hit that did not fit, the spans it was said to need)
        let mut promised: Option<(i64, u64)> = None;
        loop {
            let mut hits = vec![Hit::default(); hcap];
            let mut spans = vec![Span::default(); scap];
            let base = all_spans.len() as i64;
            let (st, nh, ns) = m.find(
                buf.as_bytes(),
                &mut cur,
                0,
                first_only,
                &mut hits,
                &mut spans,
                base,
            );
            if let (Some((at, need)), true) = (promised, nh > 0) {
                let h = &hits[0];
                if spans[(h.span_lo - base) as usize].start == at {
                    assert_eq!((h.span_hi - h.span_lo) as u64, need, "spans needed at {at}");
                    promised = None;
                }
            }
            out.extend_from_slice(&hits[..nh]);
            all_spans.extend_from_slice(&spans[..ns]);
            match st {
                GOPI_DONE => break,
                GOPI_FULL_HITS => hcap *= 2,
                _ => {
                    assert!(cur.spans_needed > 0);
                    promised = Some((cur.pos as i64, cur.spans_needed));
                    scap *= 2
                }
            }
        }
        assert!(promised.is_none(), "a hit said to need spans never came");
        out.iter()
            .map(|h| {
                let s = all_spans[h.span_lo as usize..h.span_hi as usize]
                    .iter()
                    .map(|s| (s.start, s.end))
                    .collect();
                (h.line, h.start, h.end, s)
            })
            .collect()
    }

    #[test]
    fn lines_and_spans() {
        let got = find_all("o", 0, "foo\nbar\nboo");
        assert_eq!(
            got,
            vec![
                (1, 0, 3, vec![(1, 2), (2, 3)]),
                (3, 8, 11, vec![(9, 10), (10, 11)])
            ]
        );
        // Empty pattern: every line, but not the phantom after a final '\n'.
        let got = find_all("", 0, "a\n\nb\n");
        assert_eq!(
            got,
            vec![
                (1, 0, 1, vec![(0, 0), (1, 1)]),
                (2, 2, 2, vec![(2, 2)]),
                (3, 3, 4, vec![(3, 3), (4, 4)])
            ]
        );
        // A class never matches '\n' line by line; multiline joins lines.
        assert_eq!(find_all(r"a\sb", 0, "a\nb"), vec![]);
        assert_eq!(
            find_all(r"a\sb", LINE_MULTILINE, "a\nb\nc"),
            vec![(1, 0, 3, vec![(0, 3)])]
        );
        assert_eq!(find_all(r"\Ab", 0, "ab\nb"), vec![(2, 3, 4, vec![(3, 4)])]);
    }

    #[test]
    fn empty_matches_beside_invalid_utf8() {
        // A line opening with a lone continuation byte still has a start.
        let buf: &[u8] = b"a\n\xa6\n";
        for pat in ["^", "^.*", r"^\s*", r"\A.*"] {
            let m = LineMatcher::new(pat.as_bytes(), &LineOptions::default()).unwrap();
            assert_eq!(m.count(buf).0, 2, "pattern {pat}");
        }
    }

    #[test]
    fn crossing_lines() {
        let ml = LineOptions {
            flags: LINE_MULTILINE,
            ..Default::default()
        };
        for (pat, want) in [
            (r"a\nb", true),
            (r"\s", true),
            ("(?s).", true),
            ("[^a]", true),
            ("a|b", false),
            ("^a$", false),
            (".", false),
        ] {
            let m = LineMatcher::new(pat.as_bytes(), &ml).unwrap();
            assert_eq!(m.crosses_lines(), want, "pattern {pat}");
        }
        let m = LineMatcher::new(br"\s", &LineOptions::default()).unwrap();
        assert!(!m.crosses_lines());
    }

    #[test]
    fn newline_literal_rejected() {
        let e = LineMatcher::new(b"a\\nb", &LineOptions::default())
            .err()
            .unwrap();
        assert_eq!(e.pos, Some(1));
    }

    #[test]
    fn first_only_keeps_each_lines_first_match() {
        let buf = "a1 a2 a3\nb\na4\né a5 a6";
        for pat in ["a[0-9]", "a", "(?i)A\\d"] {
            let all = find_all(pat, 0, buf);
            let first = find_some(pat, 0, buf, true);
            assert_eq!(all.len(), first.len(), "{pat}");
            for (a, f) in all.iter().zip(&first) {
                assert_eq!((a.0, a.1, a.2), (f.0, f.1, f.2), "{pat}");
                assert_eq!(f.3, vec![a.3[0]], "{pat}");
            }
        }
    }

    #[test]
    fn counts() {
        let m = LineMatcher::new(b"o", &LineOptions::default()).unwrap();
        assert_eq!(m.count(b"foo\nbar\nboo\n"), (2, 4));
        let m = LineMatcher::new(
            b"a\\nb",
            &LineOptions {
                flags: LINE_MULTILINE,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(m.count(b"a\nb\na\nb"), (4, 2));
    }

    #[test]
    fn count_lines_agrees_with_count() {
        let hay: &[u8] = b"foo foo\nbar\nFooError x BarError\n\nzzz foo\nfoo";
        for p in [
            "o",
            "foo",
            "^",
            "$",
            "[A-Z][a-z]+Error",
            r"\bfoo\b",
            "x*",
            "zzz|bar",
        ] {
            let m = LineMatcher::new(p.as_bytes(), &LineOptions::default()).unwrap();
            assert_eq!(m.count_lines(hay), m.count(hay).0, "{p}");
        }
    }
}
