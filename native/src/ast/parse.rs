//! Parsing with cancellation: one tree-sitter parser per thread and
//! language, stopped through the progress callback when the caller's
//! cancel flag is set or the deadline passes.
use ast_grep_core::tree_sitter::{LanguageExt, StrDoc};
use ast_grep_core::AstGrep;
use ast_grep_language::SupportLang;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// Why work stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Cancelled,
    Timeout,
}

/// The caller's cancel flag and deadline.
pub struct Control<'a> {
    pub cancel: Option<&'a AtomicBool>,
    pub deadline: Option<Instant>,
}

impl Control<'_> {
    /// Reports whether work must stop now.
    pub fn stopped(&self) -> Option<Stop> {
        if let Some(c) = self.cancel {
            if c.load(Ordering::Relaxed) {
                return Some(Stop::Cancelled);
            }
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d {
                return Some(Stop::Timeout);
            }
        }
        None
    }
}

thread_local! {
    static PARSERS: RefCell<HashMap<SupportLang, tree_sitter::Parser>> = RefCell::new(HashMap::new());
}

/// Why a parse produced no tree.
pub enum ParseFail {
    Stopped(Stop),
    Failed(String),
}

/// Why `src` must not be handed to `lang`'s parser, if it must not: a
/// grammar with a known crash (a segfault in its C scanner, which would
/// take the whole process down) on input of this shape.
///
/// tree-sitter-bash 0.25.1 can segfault on `{` followed by a character of
/// four UTF-8 bytes (upstream tree-sitter-bash issue 337; whether it does
/// depends on memory layout, so no input of the shape is safe). We refuse
/// any text with a `{` followed anywhere later by a four-byte lead byte,
/// a superset of the trigger.
pub fn known_crash(lang: SupportLang, src: &[u8]) -> Option<&'static str> {
    if lang != SupportLang::Bash {
        return None;
    }
    let brace = memchr::memchr(b'{', src)?;
    if src[brace..].iter().any(|&b| (0xF0..=0xF7).contains(&b)) {
        return Some(
            "not parsed: tree-sitter-bash can crash on '{' followed by a 4-byte UTF-8 character (upstream tree-sitter-bash issue 337)",
        );
    }
    None
}

/// Parses `src` as `lang`.
pub fn parse(
    lang: SupportLang,
    src: String,
    ctl: &Control,
) -> Result<AstGrep<StrDoc<SupportLang>>, ParseFail> {
    parse_parts(lang, src, &[], ctl)
}

/// Source bytes parsed since the C allocator last gave its free memory
/// back to the system (see [`trim_if_due`]).
static PARSED_SINCE_TRIM: AtomicUsize = AtomicUsize::new(0);

/// How many bytes of source are parsed between two trims: a trim costs
/// about what its freed pages cost to fault in again, so it waits until
/// enough trees have come and gone (a tree search trims every few dozen
/// files; a loop searching one 64 KB file, every eighth search).
const TRIM_EVERY: usize = 512 << 10;

/// Gives the C allocator's free memory back to the system once enough
/// source has been parsed since the last time. tree-sitter's nodes are
/// small C allocations freed with their tree; glibc keeps the freed memory
/// in per-thread arenas, fragmented, so a search of a large tree kept the
/// high-water mark of every parsing thread resident (the Python standard
/// library's `def` search: 82–89 MB peak RSS, 58–67 MB with trims).
pub fn trim_if_due() {
    if PARSED_SINCE_TRIM.load(Ordering::Relaxed) < TRIM_EVERY {
        return;
    }
    PARSED_SINCE_TRIM.store(0, Ordering::Relaxed);
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: glibc's malloc_trim only walks its own arenas.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// Parses only the `parts` of `src` (tree-sitter's included ranges; empty:
/// the whole source) as `lang`. Nodes keep the offsets and points of the
/// whole source.
pub fn parse_parts(
    lang: SupportLang,
    src: String,
    parts: &[tree_sitter::Range],
    ctl: &Control,
) -> Result<AstGrep<StrDoc<SupportLang>>, ParseFail> {
    if let Some(why) = known_crash(lang, src.as_bytes()) {
        return Err(ParseFail::Failed(why.to_string()));
    }
    // What is parsed, not the source the tree holds (a group of a file cut
    // for several threads holds the source up to its end).
    let parsed = if parts.is_empty() {
        src.len()
    } else {
        parts.iter().map(|r| r.end_byte - r.start_byte).sum()
    };
    PARSED_SINCE_TRIM.fetch_add(parsed, Ordering::Relaxed);
    let tree = PARSERS.with(|cell| {
        let mut map = cell.borrow_mut();
        let parser = match map.entry(lang) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let mut p = tree_sitter::Parser::new();
                p.set_language(&lang.get_ts_language())
                    .map_err(|e| ParseFail::Failed(format!("grammar not usable: {e}")))?;
                e.insert(p)
            }
        };
        parser.reset();
        // Always set: the parser is reused by the thread's next parse.
        parser
            .set_included_ranges(parts)
            .map_err(|e| ParseFail::Failed(format!("bad parse ranges: {e:?}")))?;
        let bytes = src.as_bytes();
        let len = bytes.len();
        let mut stopped = None;
        let mut progress = |_: &tree_sitter::ParseState| match ctl.stopped() {
            Some(s) => {
                stopped = Some(s);
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        };
        let opts = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
        let tree = parser.parse_with_options(
            &mut |i, _| if i < len { &bytes[i..] } else { &[] as &[u8] },
            None,
            Some(opts),
        );
        match tree {
            Some(t) => Ok(t),
            None => {
                parser.reset();
                Err(match stopped {
                    Some(s) => ParseFail::Stopped(s),
                    None => ParseFail::Failed("the parser produced no tree".to_string()),
                })
            }
        }
    })?;
    Ok(AstGrep::doc(StrDoc { src, lang, tree }))
}
