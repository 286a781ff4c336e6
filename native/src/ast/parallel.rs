//! Searching one large file on several threads at once.
//!
//! A file is parsed by one tree-sitter parser on one thread, so a single
//! large file (the agent searching one file, or the last big file of a
//! tree) leaves the other cores idle. Where [`split`](super::split) can cut
//! a file into top-level declarations, the declarations to parse are shared
//! out in groups of about the same size, two per thread; each group is parsed
//! alone (as the parts of a plan are, so nodes keep whole-file positions) and
//! searched by one of a few threads kept for this, and the records are
//! joined in file order. A group with a syntax error sends the file back to
//! a whole parse, as a part does.
//!
//! Threads are only taken from idle cores: [`Busy`] counts the searches
//! running in the process, so that a tree search whose workers already fill
//! every core parses each file on its own thread as before.

use super::compile::Matcher;
use super::parse::{self, Control, ParseFail, Stop};
use super::search::{search_doc, FileRecord, Status, Want};
use super::split::{self, Plan};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// Threads parsing or searching a file now, in the whole process.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

/// Pool threads taken by the searches running now.
static POOL_HELD: AtomicUsize = AtomicUsize::new(0);

/// Pool threads taken until dropped.
struct PoolHeld(usize);

impl PoolHeld {
    /// Takes up to `want` of the pool's `size` threads that no other search
    /// holds; `None` when none is free.
    fn take(want: usize, size: usize) -> Option<PoolHeld> {
        let mut took = 0;
        POOL_HELD
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                took = want.min(size.saturating_sub(held));
                (took > 0).then_some(held + took)
            })
            .ok()?;
        Some(PoolHeld(took))
    }
}

impl Drop for PoolHeld {
    fn drop(&mut self) {
        POOL_HELD.fetch_sub(self.0, Ordering::AcqRel);
    }
}

/// At most this many threads for one file.
const MAX_THREADS: usize = 4;

/// Groups per pool thread a file is cut into, so that a thread that starts
/// late or is slowed by the machine leaves the rest to the others.
const GROUPS_PER_THREAD: usize = 2;

/// Stack of a helper thread: as much as a thread the Go side makes, since
/// matching recurses over deep trees.
const STACK: usize = 8 << 20;

/// Counts `n` threads as busy until dropped.
pub struct Busy(usize);

impl Busy {
    pub fn enter(n: usize) -> Busy {
        ACTIVE.fetch_add(n, Ordering::Relaxed);
        Busy(n)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(self.0, Ordering::Relaxed);
    }
}

/// The threads that help a calling thread parse the groups of one file,
/// started at the first such search and kept: a thread started per search
/// came up to 1.6 ms late on this machine, and its allocator arena was cold
/// (every page of a group's tree a fresh fault). `None` when no thread could
/// be started.
fn pool() -> Option<&'static rayon_core::ThreadPool> {
    static POOL: OnceLock<Option<rayon_core::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon_core::ThreadPoolBuilder::new()
            // The caller is the other thread of a search.
            .num_threads((cores().min(MAX_THREADS) - 1).max(1))
            .thread_name(|i| format!("gopi-parse-{i}"))
            .stack_size(STACK)
            .build()
            .ok()
    })
    .as_ref()
}

/// Locks `m`, whether or not a thread panicked holding it (the data is a
/// result slot or a list of trees: nothing half-written to fear).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Threads the calling search may use: its own and the idle cores'.
fn threads() -> usize {
    let busy = ACTIVE.load(Ordering::Relaxed).max(1);
    (1 + cores().saturating_sub(busy)).min(MAX_THREADS)
}

/// Whether a file of `len` bytes would be cut over idle cores now (so its
/// declarations are worth finding even when no part can be skipped).
pub fn would_cut(len: usize) -> bool {
    len >= split::PARALLEL_MIN && threads() > 1
}

/// Searches `src` as `plan` says, on several threads when cores are idle
/// and the file can be cut; `None` when it was not done (one thread is
/// better, or a group has a syntax error): the caller parses as usual.
pub fn search(
    m: &Matcher,
    src: &str,
    plan: &Plan,
    want: &Want,
    ctl: &Control,
) -> Option<(FileRecord, Option<Stop>)> {
    search_on(m, src, plan, want, ctl, threads())
}

/// [`search`] on at most `threads` threads.
fn search_on(
    m: &Matcher,
    src: &str,
    plan: &Plan,
    want: &Want,
    ctl: &Control,
    threads: usize,
) -> Option<(FileRecord, Option<Stop>)> {
    let pool = pool()?;
    let groups = split::chunks(src.as_bytes(), plan, threads * GROUPS_PER_THREAD)?;
    // Only pool threads no other search holds: a job queued behind another
    // search's group would keep this one (its deadline and cancel too)
    // waiting until that group is parsed. None free: one thread, as usual.
    let held = PoolHeld::take(groups.len().min(threads) - 1, pool.current_num_threads())?;
    let threads = 1 + held.0;
    let _helpers = Busy::enter(held.0);
    // Trees are freed after the search has returned (see below).
    let done_trees = Mutex::new(Vec::new());
    let one = |g: &[Range<usize>]| -> Option<(FileRecord, Option<Stop>)> {
        let ranges = split::ts_ranges(src.as_bytes(), g);
        // A group's tree owns the source up to the group's end only (its
        // nodes lie before that; line and column numbers need what comes
        // before them): four groups copy 2.5 sources rather than four.
        let upto = g.last().map_or(src.len(), |r| r.end);
        match parse::parse_parts(m.lang, src[..upto].to_string(), &ranges, ctl) {
            Ok(doc) if doc.root().get_inner_node().has_error() => None,
            Ok(doc) => {
                let r = search_doc(m, &doc, want, ctl);
                lock(&done_trees).push(doc);
                Some(r)
            }
            Err(ParseFail::Stopped(s)) => Some((FileRecord::new(Status::Stopped, ""), Some(s))),
            Err(ParseFail::Failed(msg)) => Some((FileRecord::new(Status::ParseFailed, msg), None)),
        }
    };
    // The calling thread and `threads - 1` pool threads take groups in
    // turn until none is left: a thread that starts late or runs slow takes
    // fewer of them. The caller works too, with its allocator arena already
    // grown by its own parsing, rather than waiting.
    type Slot = Mutex<Option<Option<(FileRecord, Option<Stop>)>>>;
    let slots: Vec<Slot> = groups.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let (Some(g), Some(slot)) = (groups.get(i), slots.get(i)) else {
            break;
        };
        let done = one(g);
        if done.is_none() {
            // A syntax error: the file will be parsed whole, so the groups
            // not yet taken are left alone.
            next.store(groups.len(), Ordering::Relaxed);
        }
        *lock(slot) = Some(done);
    };
    pool.in_place_scope(|sc| {
        for _ in 1..threads.min(groups.len()) {
            sc.spawn(|_| work());
        }
        work();
    });
    // Freeing the trees (a quarter of a millisecond per group of the
    // 5,000-line benchmark file) is left to the pool, after the caller has
    // its results.
    let trees = done_trees.into_inner().unwrap_or_else(|p| p.into_inner());
    if !trees.is_empty() {
        pool.spawn(move || drop(trees));
    }
    let mut results = Vec::with_capacity(slots.len());
    for s in slots {
        let r = s.into_inner().unwrap_or_else(|p| p.into_inner());
        // A group left alone after another's syntax error: the whole file
        // is parsed instead.
        results.push(r?);
    }
    let mut out = FileRecord::new(Status::Searched, "");
    for r in results {
        let (rec, stop) = r?;
        if stop.is_some() || rec.status != Status::Searched {
            return Some((rec, stop));
        }
        // Offsets are the whole file's in every group.
        out.matches.extend(rec.matches);
        out.add_source(rec.source);
    }
    Some((out, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::compile::tests::matcher;
    use crate::ast::search::search_bytes;
    use ast_grep_language::SupportLang;

    /// Held by the tests that need the pool to themselves (cargo runs tests
    /// on several threads at once).
    static POOL_TESTS: Mutex<()> = Mutex::new(());

    /// Everything a caller sees of a record's matches.
    fn seen(rec: &FileRecord) -> Vec<String> {
        rec.matches
            .iter()
            .map(|x| {
                let caps: Vec<String> = x
                    .captures
                    .iter()
                    .map(|c| {
                        let nodes: Vec<String> = c
                            .nodes
                            .iter()
                            .map(|n| format!("{}-{}", n.start.offset, n.end.offset))
                            .collect();
                        format!("{}={}", c.name, nodes.join(","))
                    })
                    .collect();
                format!(
                    "{} {}:{}-{}:{} {:?} {:?} {}",
                    x.start.offset,
                    x.start.line,
                    x.start.column,
                    x.end.line,
                    x.end.column,
                    crate::ast::search::tests::match_text(rec, x),
                    rec.text(x.lines.0, x.lines.1),
                    caps.join(" ")
                )
            })
            .collect()
    }

    /// No cancel flag, no deadline.
    const NO_STOP: Control<'static> = Control {
        cancel: None,
        deadline: None,
    };

    /// A search as the CLI asks for one: captures, the prefilter, no cache.
    const SEARCH: Want = Want {
        captures: true,
        edits: false,
        prefilter: true,
    };

    fn same_as_whole(lang: SupportLang, pattern: &str, src: &str, threads: usize) -> usize {
        let m = matcher(lang, pattern);
        let (ctl, want) = (NO_STOP, SEARCH);
        let plan = split::plan(&m, src.as_bytes(), true);
        let (par, stop) =
            search_on(&m, src, &plan, &want, &ctl, threads).expect("searched in parallel");
        assert!(stop.is_none());
        let whole_want = Want {
            prefilter: false,
            ..want
        };
        let whole = search_bytes(&m, src.as_bytes().to_vec(), &whole_want, &ctl).0;
        assert_eq!(seen(&par), seen(&whole), "{pattern} on {threads} threads");
        par.matches.len()
    }

    fn go_source(funcs: usize) -> String {
        let mut s = String::from("package p\n\nimport \"fmt\"\n\n");
        for i in 0..funcs {
            s.push_str(&format!(
                "// F{i} does é things.\nfunc F{i}(x int) error {{\n\tif x > {i} {{\n\t\treturn fmt.Errorf(\"f{i}: %d\", x)\n\t}}\n\ts := `raw\n}}`\n\t_ = s\n\treturn nil\n}}\n\n"
            ));
        }
        s
    }

    #[test]
    fn groups_find_what_a_whole_parse_finds() {
        let _pool = lock(&POOL_TESTS);
        let src = go_source(600);
        for threads in 2..=4 {
            assert_eq!(
                same_as_whole(SupportLang::Go, "fmt.Errorf($$$A)", &src, threads),
                600
            );
            assert_eq!(
                same_as_whole(SupportLang::Go, "if $C { return $$$ }", &src, threads),
                600
            );
        }
        let mut py = String::new();
        for i in 0..800 {
            py.push_str(&format!(
                "@dec\ndef f{i}(a, b):\n    \"\"\"doc\n{i}\"\"\"\n    return isinstance(a, b)\n\n"
            ));
        }
        assert_eq!(
            same_as_whole(SupportLang::Python, "isinstance($X, $T)", &py, 3),
            800
        );
        assert_eq!(
            same_as_whole(SupportLang::Python, "def $F($$$P): $$$B", &py, 2),
            800
        );
    }

    #[test]
    fn small_files_and_syntax_errors_stay_whole() {
        let _pool = lock(&POOL_TESTS);
        let m = matcher(SupportLang::Go, "fmt.Errorf($$$A)");
        let (ctl, want) = (NO_STOP, SEARCH);
        let small = go_source(10);
        let plan = split::plan(&m, small.as_bytes(), true);
        assert!(search_on(&m, &small, &plan, &want, &ctl, 2).is_none());
        // A broken declaration in the second half: that group has an
        // error, so the whole file must be parsed.
        let mut broken = go_source(600);
        broken.push_str("func G() { fmt.Errorf(\"x\"\n\nfunc H() {}\n");
        let plan = split::plan(&m, broken.as_bytes(), true);
        assert!(search_on(&m, &broken, &plan, &want, &ctl, 2).is_none());
        assert!(search_on(&m, &broken, &plan, &want, &ctl, 1).is_none());
    }

    /// With every pool thread held by another search, a search does not
    /// queue behind it (a review measured a 20 ms deadline kept 1.5 s): it
    /// declines, and the caller parses the file on its own thread.
    #[test]
    fn a_held_pool_is_not_waited_for() {
        let _pool = lock(&POOL_TESTS);
        let m = matcher(SupportLang::Go, "if $C { return $$$ }");
        let (ctl, want) = (NO_STOP, SEARCH);
        let src = go_source(600);
        let plan = split::plan(&m, src.as_bytes(), true);
        let size = pool().expect("a pool").current_num_threads();
        let others = PoolHeld::take(size, size).expect("the pool is free");
        assert!(search_on(&m, &src, &plan, &want, &ctl, 2).is_none());
        drop(others);
        assert!(search_on(&m, &src, &plan, &want, &ctl, 2).is_some());
        assert_eq!(POOL_HELD.load(Ordering::Acquire), 0);
    }
}
