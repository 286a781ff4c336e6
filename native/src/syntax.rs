//! Pattern parsing with `regex-syntax`: exact error spans for the C API and
//! the HIR rewrites behind line-oriented matching.
//!
//! `rure` reports errors as rendered text only. [`gopi_regex_syntax_error`]
//! re-parses a pattern with the same flags `rure_compile` uses and returns
//! the byte offset where the problem starts, which the Go binding puts in its
//! typed error.
use std::ffi::c_char;

use regex_syntax::ast::{self, Ast};
use regex_syntax::hir::{self, Class, Hir, HirKind, Look};

use crate::ffi::{bytes, guard, set_message};

/// The nesting limit `regex` uses by default; we mirror it so our parse
/// fails exactly where `rure_compile` does.
const NEST_LIMIT: u32 = 250;

// Flag bits of rure_compile (see RURE_FLAG_* in the rure C API).
const FLAG_CASEI: u32 = 1 << 0;
const FLAG_MULTI: u32 = 1 << 1;
const FLAG_DOTNL: u32 = 1 << 2;
const FLAG_SWAP_GREED: u32 = 1 << 3;
const FLAG_SPACE: u32 = 1 << 4;
const FLAG_UNICODE: u32 = 1 << 5;

/// A pattern error: where it starts (byte offset) and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset in the pattern where the offending construct starts.
    pub pos: usize,
    /// Short description, without the pattern rendering.
    pub message: String,
}

/// Parser settings shared by the rure path and the line matcher.
#[derive(Debug, Clone, Copy, Default)]
pub struct ParseFlags {
    pub case_insensitive: bool,
    pub multi_line: bool,
    pub dot_matches_new_line: bool,
    pub swap_greed: bool,
    pub ignore_whitespace: bool,
    pub unicode: bool,
}

impl ParseFlags {
    /// Decodes rure's flag bits.
    pub fn from_rure(flags: u32) -> ParseFlags {
        ParseFlags {
            case_insensitive: flags & FLAG_CASEI != 0,
            multi_line: flags & FLAG_MULTI != 0,
            dot_matches_new_line: flags & FLAG_DOTNL != 0,
            swap_greed: flags & FLAG_SWAP_GREED != 0,
            ignore_whitespace: flags & FLAG_SPACE != 0,
            unicode: flags & FLAG_UNICODE != 0,
        }
    }
}

/// Parses `pattern` to an AST and translates it to HIR, the two steps
/// `regex` performs, keeping the AST for callers that inspect literals.
/// Like `regex::bytes`, the HIR may match invalid UTF-8 (`utf8(false)`).
pub fn parse(pattern: &[u8], flags: ParseFlags) -> Result<(Ast, Hir), SyntaxError> {
    let pattern = std::str::from_utf8(pattern).map_err(|e| SyntaxError {
        pos: e.valid_up_to(),
        message: "pattern is not valid UTF-8".to_string(),
    })?;
    let ast = ast::parse::ParserBuilder::new()
        .nest_limit(NEST_LIMIT)
        .ignore_whitespace(flags.ignore_whitespace)
        .build()
        .parse(pattern)
        .map_err(|e| SyntaxError {
            pos: e.span().start.offset,
            message: e.kind().to_string(),
        })?;
    let hir = hir::translate::TranslatorBuilder::new()
        .utf8(false)
        .case_insensitive(flags.case_insensitive)
        .multi_line(flags.multi_line)
        .dot_matches_new_line(flags.dot_matches_new_line)
        .swap_greed(flags.swap_greed)
        .unicode(flags.unicode)
        .build()
        .translate(pattern, &ast)
        .map_err(|e| SyntaxError {
            pos: e.span().start.offset,
            message: e.kind().to_string(),
        })?;
    Ok((ast, hir))
}

/// Returns the span start of the first literal `\n` written in the pattern
/// outside a character class (a class may lose its `\n`; a literal cannot).
pub fn find_newline_literal(ast: &Ast) -> Option<usize> {
    match ast {
        Ast::Literal(lit) if lit.c == '\n' => Some(lit.span.start.offset),
        Ast::Repetition(rep) => find_newline_literal(&rep.ast),
        Ast::Group(group) => find_newline_literal(&group.ast),
        Ast::Alternation(alt) => alt.asts.iter().find_map(find_newline_literal),
        Ast::Concat(cat) => cat.asts.iter().find_map(find_newline_literal),
        _ => None,
    }
}

/// Rewrites `hir` for matching within single lines, the way a line-oriented
/// grep needs: `\n` is removed from every class (a class left empty can never
/// match), and the text anchors `\A`/`\z` become line anchors so each line
/// behaves as if searched alone. Literals containing `\n` can only come from
/// classes that collapsed to one byte (e.g. `[\n]`), so they become "never
/// matches"; callers reject written `\n` literals before calling this.
pub fn strip_newlines(hir: Hir) -> Hir {
    match hir.into_kind() {
        HirKind::Empty => Hir::empty(),
        HirKind::Literal(hir::Literal(b)) => {
            if b.contains(&b'\n') {
                Hir::fail()
            } else {
                Hir::literal(b)
            }
        }
        HirKind::Class(Class::Unicode(mut cls)) => {
            let nl = hir::ClassUnicode::new([hir::ClassUnicodeRange::new('\n', '\n')]);
            cls.difference(&nl);
            Hir::class(Class::Unicode(cls))
        }
        HirKind::Class(Class::Bytes(mut cls)) => {
            let nl = hir::ClassBytes::new([hir::ClassBytesRange::new(b'\n', b'\n')]);
            cls.difference(&nl);
            Hir::class(Class::Bytes(cls))
        }
        HirKind::Look(Look::Start) => Hir::look(Look::StartLF),
        HirKind::Look(Look::End) => Hir::look(Look::EndLF),
        HirKind::Look(look) => Hir::look(look),
        HirKind::Repetition(mut rep) => {
            rep.sub = Box::new(strip_newlines(*rep.sub));
            Hir::repetition(rep)
        }
        HirKind::Capture(mut cap) => {
            cap.sub = Box::new(strip_newlines(*cap.sub));
            Hir::capture(cap)
        }
        HirKind::Concat(subs) => Hir::concat(subs.into_iter().map(strip_newlines).collect()),
        HirKind::Alternation(subs) => {
            Hir::alternation(subs.into_iter().map(strip_newlines).collect())
        }
    }
}

/// Reports whether a match of `hir` can contain the ASCII byte `b`: some
/// literal or class in it holds `b`. Look-around assertions consume nothing
/// and a repetition capped at zero matches nothing. For a byte of 0x80 or
/// above the answer would need UTF-8 encodings, so those are not supported.
pub fn can_match_byte(hir: &Hir, b: u8) -> bool {
    debug_assert!(b.is_ascii());
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => false,
        HirKind::Literal(hir::Literal(bytes)) => bytes.contains(&b),
        HirKind::Class(Class::Unicode(cls)) => {
            let c = char::from(b);
            cls.ranges().iter().any(|r| r.start() <= c && c <= r.end())
        }
        HirKind::Class(Class::Bytes(cls)) => {
            cls.ranges().iter().any(|r| r.start() <= b && b <= r.end())
        }
        HirKind::Repetition(rep) => rep.max != Some(0) && can_match_byte(&rep.sub, b),
        HirKind::Capture(cap) => can_match_byte(&cap.sub, b),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => {
            subs.iter().any(|h| can_match_byte(h, b))
        }
    }
}

/// Returns the ASCII form of a Unicode word-boundary assertion, if `look`
/// is one. On a pure-ASCII haystack both forms agree at every position.
fn ascii_word_look(look: Look) -> Option<Look> {
    Some(match look {
        Look::WordUnicode => Look::WordAscii,
        Look::WordUnicodeNegate => Look::WordAsciiNegate,
        Look::WordStartUnicode => Look::WordStartAscii,
        Look::WordEndUnicode => Look::WordEndAscii,
        Look::WordStartHalfUnicode => Look::WordStartHalfAscii,
        Look::WordEndHalfUnicode => Look::WordEndHalfAscii,
        _ => return None,
    })
}

/// Returns a copy of `hir` with every Unicode word-boundary assertion
/// replaced by its ASCII form, or `None` when `hir` has none (then no
/// second regex is worth building).
pub fn ascii_word_boundaries(hir: &Hir) -> Option<Hir> {
    let props = hir.properties();
    let unicode_words = props.look_set().contains_word_unicode();
    if !unicode_words {
        return None;
    }
    Some(replace_word_looks(hir.clone()))
}

fn replace_word_looks(hir: Hir) -> Hir {
    match hir.into_kind() {
        HirKind::Look(look) => Hir::look(ascii_word_look(look).unwrap_or(look)),
        HirKind::Repetition(mut rep) => {
            rep.sub = Box::new(replace_word_looks(*rep.sub));
            Hir::repetition(rep)
        }
        HirKind::Capture(mut cap) => {
            cap.sub = Box::new(replace_word_looks(*cap.sub));
            Hir::capture(cap)
        }
        HirKind::Concat(subs) => Hir::concat(subs.into_iter().map(replace_word_looks).collect()),
        HirKind::Alternation(subs) => {
            Hir::alternation(subs.into_iter().map(replace_word_looks).collect())
        }
        HirKind::Empty => Hir::empty(),
        HirKind::Literal(hir::Literal(b)) => Hir::literal(b),
        HirKind::Class(cls) => Hir::class(cls),
    }
}

/// Re-parses a pattern that `rure_compile` rejected, with the same `flags`,
/// to find where the problem is. Returns 1 and sets `*pos` (byte offset) and
/// `*msg` (a string the caller frees with `gopi_string_free`) when the
/// pattern has a syntax error; 0 when it parses (the failure was something
/// else, such as a size limit; nothing is allocated); -1 on an internal
/// failure, with the description in `*msg`.
///
/// # Safety
/// `pattern` must point to `len` readable bytes (or be null when `len` is
/// 0); `pos` and `msg` must be valid for one write each.
#[no_mangle]
pub unsafe extern "C" fn gopi_regex_syntax_error(
    pattern: *const u8,
    len: usize,
    flags: u32,
    pos: *mut i64,
    msg: *mut *mut c_char,
) -> i32 {
    guard(msg, -1, || {
        let pat = bytes(pattern, len);
        match parse(pat, ParseFlags::from_rure(flags)) {
            Ok(_) => 0,
            Err(e) => {
                if !pos.is_null() {
                    *pos = e.pos as i64;
                }
                set_message(msg, &e.message);
                1
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_spans() {
        let f = ParseFlags {
            unicode: true,
            ..Default::default()
        };
        assert_eq!(parse(b"ab(c", f).unwrap_err().pos, 2);
        assert_eq!(parse(b"a{2,1}", f).unwrap_err().pos, 1);
        assert_eq!(parse(b"x\\p{Bogus}", f).unwrap_err().pos, 1);
    }

    #[test]
    fn newline_literal() {
        let f = ParseFlags::default();
        let (ast, _) = parse(b"ab\\ncd", f).unwrap();
        assert_eq!(find_newline_literal(&ast), Some(2));
        let (ast, _) = parse(b"a[\\n]", f).unwrap();
        assert_eq!(find_newline_literal(&ast), None);
    }
}
