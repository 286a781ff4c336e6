//! Required-literal line prefilter for line-by-line searches.
//!
//! A regex such as `[A-Z][a-z]+Error` has no useful prefix literal (its
//! first byte can be any of 26 letters, which occur everywhere in source
//! code), so the regex engine's own prefilter does little and the lazy DFA
//! walks every byte. Yet every match must contain `Error`. When matches
//! never cross lines, a line without that literal cannot hold a match: the
//! scan can jump between occurrences of the literal with a fast substring
//! search and run the regex only on the lines where it occurs. This is the
//! "inner literal" technique ripgrep uses.
//!
//! Only the top-level concatenation is examined: a literal set extracted
//! from one element of a concatenation is required by every match of the
//! whole (each match of that element starts with one of the set's
//! literals). The set is used only when the whole pattern lacks a good
//! prefix literal, since then the regex engine's own prefilter is better.
//!
//! A second line prefilter covers patterns such as `\p{Greek}+` that have no
//! literal at all but cannot match pure-ASCII text: every match holds a byte
//! of 0x80 or above, so only lines holding such a byte need the regex. In
//! source trees those are few.
use regex_automata::util::prefilter::Prefilter;
use regex_automata::MatchKind;
use regex_syntax::hir::literal::{ExtractKind, Extractor, Seq};
use regex_syntax::hir::{Class, Hir, HirKind};

/// At most this many literals in a chosen set: larger sets make slow
/// prefilters.
const MAX_LITERALS: usize = 32;

/// Literals shorter than this match too often to pay for the jumps.
const MIN_LITERAL_LEN: usize = 3;

/// Builds the prefilter for `hir` (already in line mode, without `\n`
/// anywhere), or `None` when the pattern has a good prefix literal of its
/// own or no required literal worth using.
pub fn inner_prefilter(hir: &Hir) -> Option<Prefilter> {
    if let Some(len) = usable_min_len(&prefix_literals(hir)) {
        if len >= 2 {
            return None; // the engine's prefix prefilter does this job
        }
    }
    let HirKind::Concat(parts) = hir.kind() else {
        return None;
    };
    let mut best: Option<(usize, Seq)> = None;
    for part in parts.iter().skip(1) {
        let seq = prefix_literals(part);
        let Some(len) = usable_min_len(&seq) else {
            continue;
        };
        if len >= MIN_LITERAL_LEN && best.as_ref().is_none_or(|(l, _)| len > *l) {
            best = Some((len, seq));
        }
    }
    let (_, seq) = best?;
    let lits: Vec<&[u8]> = seq.literals()?.iter().map(|l| l.as_bytes()).collect();
    let pre = Prefilter::new(MatchKind::All, &lits)?;
    pre.is_fast().then_some(pre)
}

/// Builds a line prefilter from the prefix literals of `hir` (every match
/// starts with one of them), or `None` when they are not worth it. The
/// regex engine's own prefilter already skips to them; this one is for a
/// pattern with Unicode word boundaries (`\bfmt\.Errorf\b`), whose lines
/// are searched with an ASCII-only regex when they are ASCII: with a line
/// filter only the candidate lines are looked at for non-ASCII bytes,
/// instead of every byte of the text.
pub fn prefix_prefilter(hir: &Hir) -> Option<Prefilter> {
    let seq = prefix_literals(hir);
    if usable_min_len(&seq)? < MIN_LITERAL_LEN {
        return None;
    }
    let lits: Vec<&[u8]> = seq.literals()?.iter().map(|l| l.as_bytes()).collect();
    let pre = Prefilter::new(MatchKind::All, &lits)?;
    pre.is_fast().then_some(pre)
}

/// Reports whether every match of `hir` contains a byte of 0x80 or above,
/// so that a line made only of ASCII bytes can never hold a match. The
/// answer errs on the side of "no": it is only true when certain.
pub fn needs_non_ascii(hir: &Hir) -> bool {
    !can_match_ascii_only(hir)
}

/// Reports whether `hir` may match some string made only of ASCII bytes.
fn can_match_ascii_only(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => true,
        HirKind::Literal(lit) => lit.0.is_ascii(),
        HirKind::Class(Class::Unicode(c)) => c.ranges().iter().any(|r| r.start() < '\u{80}'),
        HirKind::Class(Class::Bytes(c)) => c.ranges().iter().any(|r| r.start() < 0x80),
        HirKind::Repetition(rep) => rep.min == 0 || can_match_ascii_only(&rep.sub),
        HirKind::Capture(cap) => can_match_ascii_only(&cap.sub),
        HirKind::Concat(parts) => parts.iter().all(can_match_ascii_only),
        HirKind::Alternation(alts) => alts.iter().any(can_match_ascii_only),
    }
}

/// The prefix literals of `hir`, each match of `hir` starting with one.
fn prefix_literals(hir: &Hir) -> Seq {
    let mut ex = Extractor::new();
    ex.kind(ExtractKind::Prefix);
    let mut seq = ex.extract(hir);
    seq.optimize_for_prefix_by_preference();
    seq
}

/// The length of the shortest literal when `seq` is finite, non-empty and
/// small enough to search for; `None` otherwise.
fn usable_min_len(seq: &Seq) -> Option<usize> {
    let lits = seq.literals()?;
    if lits.is_empty() || lits.len() > MAX_LITERALS {
        return None;
    }
    lits.iter().map(|l| l.len()).min()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hir(p: &str) -> Hir {
        regex_syntax::ParserBuilder::new()
            .multi_line(true)
            .build()
            .parse(p)
            .unwrap()
    }

    #[test]
    fn picks_an_inner_literal_only_when_it_helps() {
        assert!(inner_prefilter(&hir("[A-Z][a-z]+Error")).is_some());
        assert!(inner_prefilter(&hir(r"\w+_test\(")).is_some());
        // Good prefix literal: the engine handles it.
        assert!(inner_prefilter(&hir("func")).is_none());
        assert!(inner_prefilter(&hir(r"^import \(")).is_none());
        assert!(inner_prefilter(&hir(r"\bfmt\.Errorf\b")).is_none());
        // No required literal at all.
        assert!(inner_prefilter(&hir(r"\p{Greek}+")).is_none());
        assert!(inner_prefilter(&hir("[a-z]+[0-9]")).is_none());
        // Too short to be worth it.
        assert!(inner_prefilter(&hir("[A-Z]+ab")).is_none());
    }

    #[test]
    fn prefix_prefilter_needs_literals_of_three_bytes() {
        assert!(prefix_prefilter(&hir(r"\bfmt\.Errorf\b")).is_some());
        assert!(prefix_prefilter(&hir(r"(?:foo|bar)\w+")).is_some());
        // Short or unbounded prefixes: nothing to filter lines with.
        assert!(prefix_prefilter(&hir(r"ab\w+")).is_none());
        assert!(prefix_prefilter(&hir(r"[A-Z][a-z]+Error")).is_none());
        assert!(prefix_prefilter(&hir(r"\w+")).is_none());
    }

    #[test]
    fn knows_when_a_match_needs_non_ascii() {
        for p in [
            r"\p{Greek}+",
            "é",
            r"[α-ω]\w*",
            r"(?:日本|語)",
            r"\p{Han}x*",
        ] {
            assert!(needs_non_ascii(&hir(p)), "{p}");
        }
        for p in [
            r"\w+",
            "a|é",
            r"\p{Greek}*",
            r"(?i)k",
            "",
            r"\b",
            "[^a]",
            r"\P{Greek}",
        ] {
            assert!(!needs_non_ascii(&hir(p)), "{p}");
        }
    }
}
