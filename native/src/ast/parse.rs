//! Parsing with cancellation: one tree-sitter parser per thread and
//! language, stopped through the progress callback when the caller's
//! cancel flag is set or the deadline passes.
use ast_grep_core::tree_sitter::{LanguageExt, StrDoc};
use ast_grep_core::AstGrep;
use ast_grep_language::SupportLang;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// Parses `src` as `lang`.
pub fn parse(
    lang: SupportLang,
    src: String,
    ctl: &Control,
) -> Result<AstGrep<StrDoc<SupportLang>>, ParseFail> {
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
