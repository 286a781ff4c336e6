//! The parse cache: the parsed trees of files read from disk, so that a
//! long-lived process (the agent) searching the same tree again does not
//! read and parse every file again. Each [`ParseCache`] is a value its
//! owner creates (one per agent session) and hands to every search and
//! outline that may use it; there is no process-wide cache.
//!
//! Entries are keyed by path and language and carry the file's stamp (size,
//! modification time, inode, device, and on Unix the status-change time,
//! which a rewrite that puts the old modification time back still moves). A stamp alone cannot prove that the
//! content is unchanged when the file was modified within [`RACY`] of being
//! cached (a second write in the same clock tick keeps size and mtime), so
//! such entries also keep a hash of the content, and a lookup re-reads the
//! file and compares hashes until the modification is old enough.
//!
//! Besides trees, an entry remembers which literal filters (see
//! [`super::compile::Matcher::filter_key`]) ruled the file out before
//! parsing, so a repeated search skips the file without reading it.
//!
//! It also keeps the results of recent searches: a file's [`FileRecord`]
//! for a matcher (by [`super::compile::Matcher::result_key`]), so the same
//! query again over an unchanged file costs a stat and a copy, even when
//! the trees of the whole search do not fit. Results take at most an
//! eighth of the budget (they are small: the lines of the matches) and are
//! evicted least recently used first; they are kept only for files whose
//! stamp can be trusted alone.
//!
//! The cache holds at most a byte budget (an estimate: source bytes plus a
//! per-node cost); the least recently used entries are evicted first, but
//! only those unused for [`PROTECT`]: while the cache is full of recently
//! used entries a new one is not admitted. Without that, searching a tree
//! bigger than the budget again and again (a cyclic scan) would evict
//! every entry just before its next use and never hit; with it, the part
//! that fits is reused. A budget of 0 disables the cache.
use super::search::FileRecord;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::AstGrep;
use ast_grep_language::SupportLang;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

/// A parsed file.
pub type Doc = AstGrep<StrDoc<SupportLang>>;

/// How recent a modification must be (relative to when the entry was
/// stored) for the stamp not to be trusted alone.
const RACY: Duration = Duration::from_secs(2);

/// Estimated bytes per tree node (tree-sitter's subtree data plus the
/// parent's child pointer).
const NODE_COST: usize = 80;

/// Entries used more recently than this are not evicted for new ones.
const PROTECT: Duration = Duration::from_secs(60);

/// Fixed bytes per entry (map slots, path, bookkeeping).
const ENTRY_COST: usize = 160;

/// What identifies a file's content cheaply.
#[derive(Clone, Copy, Debug)]
pub struct Stamp {
    size: u64,
    mtime: Option<SystemTime>,
    ino: u64,
    dev: u64,
    /// Status-change time (seconds, nanoseconds), where the system has one.
    ctime: Option<(i64, u32)>,
    /// When the stamp was taken: how old the modification was then decides
    /// whether the stamp can be trusted alone (not part of its identity).
    seen: SystemTime,
}

impl PartialEq for Stamp {
    fn eq(&self, o: &Stamp) -> bool {
        (self.size, self.mtime, self.ino, self.dev, self.ctime)
            == (o.size, o.mtime, o.ino, o.dev, o.ctime)
    }
}

impl Eq for Stamp {}

impl Stamp {
    /// A stamp from its parts, as a caller that did the stat (just now)
    /// reports them.
    pub fn new(
        size: u64,
        mtime: Option<SystemTime>,
        ino: u64,
        dev: u64,
        ctime: Option<(i64, u32)>,
    ) -> Stamp {
        Stamp {
            size,
            mtime,
            ino,
            dev,
            ctime,
            seen: SystemTime::now(),
        }
    }

    /// The stamp of a file from its metadata.
    pub fn of(md: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        let (ino, dev, ctime) = {
            use std::os::unix::fs::MetadataExt;
            (
                md.ino(),
                md.dev(),
                Some((md.ctime(), md.ctime_nsec() as u32)),
            )
        };
        #[cfg(not(unix))]
        let (ino, dev, ctime) = (0, 0, None);
        Stamp {
            size: md.len(),
            mtime: md.modified().ok(),
            ino,
            dev,
            ctime,
            seen: SystemTime::now(),
        }
    }
}

/// A fast hash of file content (for racy entries only).
pub fn content_hash(data: &[u8]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    data.hash(&mut h);
    h.finish()
}

struct Entry {
    stamp: Stamp,
    /// Content hash when the stamp alone is not trusted.
    racy_hash: Option<u64>,
    doc: Option<Arc<Doc>>,
    /// Filter keys known to rule the content out.
    skips: Vec<u64>,
    cost: usize,
    tick: u64,
    used_at: Instant,
}

type Key = (PathBuf, SupportLang);

/// A file's results for one matcher.
struct Results {
    stamp: Stamp,
    rec: Arc<FileRecord>,
    cost: usize,
    tick: u64,
}

/// Results are found by file and matcher.
type ResultsKey = (Key, u64);

#[derive(Default)]
struct Cache {
    map: HashMap<Key, Entry>,
    /// Entries by last use.
    lru: BTreeMap<u64, Key>,
    used: usize,
    budget: usize,
    tick: u64,
    hits: u64,
    misses: u64,
    results: HashMap<ResultsKey, Results>,
    /// Results by last use.
    results_lru: BTreeMap<u64, ResultsKey>,
    results_used: usize,
}

/// One parse cache: safe to share between threads (one lock inside).
#[derive(Default)]
pub struct ParseCache(Mutex<Cache>);

/// What a lookup found.
pub enum Found {
    /// Nothing usable.
    Miss,
    /// The file is known not to pass the filter: skip it.
    Skip,
    /// The parsed file.
    Doc(Arc<Doc>),
    /// An entry whose content must be checked: the hash it must have, and
    /// what it holds.
    Verify(u64, Option<Arc<Doc>>, bool),
}

impl ParseCache {
    /// A cache holding at most `budget` bytes (0: disabled).
    pub fn new(budget: usize) -> ParseCache {
        let c = ParseCache::default();
        c.lock().budget = budget;
        c
    }

    fn lock(&self) -> MutexGuard<'_, Cache> {
        // A panic while holding the lock leaves consistent data (every
        // update is done before the guard drops): keep using it.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the cache is on (budget above 0).
    pub fn enabled(&self) -> bool {
        self.lock().budget > 0
    }

    /// Looks `path` up for `lang` with the file's current stamp; `filter` is
    /// the matcher's filter key (0: no filter in use).
    pub fn lookup(&self, path: &Path, lang: SupportLang, stamp: &Stamp, filter: u64) -> Found {
        let mut c = self.lock();
        if c.budget == 0 {
            return Found::Miss;
        }
        let key = (path.to_path_buf(), lang);
        let Some(e) = c.map.get(&key) else {
            c.misses += 1;
            return Found::Miss;
        };
        if e.stamp != *stamp {
            c.misses += 1;
            let e = c.map.remove(&key).expect("entry present");
            c.lru.remove(&e.tick);
            c.used -= e.cost;
            return Found::Miss;
        }
        let skip = filter != 0 && e.skips.contains(&filter);
        let (racy, doc) = (e.racy_hash, e.doc.clone());
        if !skip && doc.is_none() {
            c.misses += 1;
            return Found::Miss;
        }
        c.hits += 1;
        c.touch(&key);
        match racy {
            Some(h) => Found::Verify(h, doc, skip),
            None if skip => Found::Skip,
            None => Found::Doc(doc.expect("checked above")),
        }
    }

    /// The results `path` gave for the matcher of `key` when its content had
    /// this stamp, if kept.
    pub fn lookup_results(
        &self,
        path: &Path,
        lang: SupportLang,
        stamp: &Stamp,
        key: u64,
    ) -> Option<Arc<FileRecord>> {
        let mut c = self.lock();
        if c.budget == 0 {
            return None;
        }
        let rk = ((path.to_path_buf(), lang), key);
        let r = c.results.get(&rk)?;
        if r.stamp != *stamp {
            c.remove_results(&rk);
            return None;
        }
        let rec = r.rec.clone();
        c.hits += 1;
        c.tick += 1;
        let t = c.tick;
        let r = c.results.get_mut(&rk).expect("entry present");
        let old = std::mem::replace(&mut r.tick, t);
        c.results_lru.remove(&old);
        c.results_lru.insert(t, rk);
        Some(rec)
    }

    /// Keeps the results of a complete search of `path` (content of this
    /// stamp) by the matcher of `key`.
    pub fn store_results(
        &self,
        path: &Path,
        lang: SupportLang,
        stamp: &Stamp,
        key: u64,
        rec: &FileRecord,
    ) {
        let mut c = self.lock();
        let room = c.budget / 8;
        if room == 0 || is_racy(stamp) {
            return;
        }
        let cost = ENTRY_COST + path.as_os_str().len() + rec.cost();
        if cost > room / 2 {
            return;
        }
        let rk = ((path.to_path_buf(), lang), key);
        c.remove_results(&rk);
        c.tick += 1;
        let tick = c.tick;
        c.results_used += cost;
        c.results_lru.insert(tick, rk.clone());
        c.results.insert(
            rk,
            Results {
                stamp: *stamp,
                rec: Arc::new(rec.clone()),
                cost,
                tick,
            },
        );
        c.evict_results();
    }

    /// Records that `filter` ruled out the content of `path` (read as `data`).
    pub fn store_skip(
        &self,
        path: &Path,
        lang: SupportLang,
        stamp: &Stamp,
        filter: u64,
        data: &[u8],
    ) {
        if filter == 0 {
            return;
        }
        let mut c = self.lock();
        if c.budget == 0 {
            return;
        }
        let key = (path.to_path_buf(), lang);
        if let Some(e) = c.map.get_mut(&key) {
            if e.stamp == *stamp {
                if !e.skips.contains(&filter) {
                    e.skips.push(filter);
                    e.cost += 8;
                    c.used += 8;
                }
                c.touch(&key);
                return;
            }
        }
        let racy_hash = is_racy(stamp).then(|| content_hash(data));
        let cost = ENTRY_COST + path.as_os_str().len() + 8;
        c.insert(
            key,
            Entry {
                stamp: *stamp,
                racy_hash,
                doc: None,
                skips: vec![filter],
                cost,
                tick: 0,
                used_at: Instant::now(),
            },
        );
    }

    /// Stores the parsed `doc` of `path` (keeping any skip records of the same
    /// content).
    pub fn store_doc(&self, path: &Path, lang: SupportLang, stamp: &Stamp, doc: Arc<Doc>) {
        let mut c = self.lock();
        if c.budget == 0 {
            return;
        }
        let src = doc.get_text().as_bytes();
        let nodes = doc.root().get_inner_node().descendant_count();
        let cost = ENTRY_COST + path.as_os_str().len() + src.len() + nodes * NODE_COST;
        if cost > c.budget / 2 {
            return; // would push out most of the cache
        }
        let racy_hash = is_racy(stamp).then(|| content_hash(src));
        let key = (path.to_path_buf(), lang);
        let skips = match c.map.get(&key) {
            Some(e) if e.stamp == *stamp => e.skips.clone(),
            _ => Vec::new(),
        };
        let cost = cost + 8 * skips.len();
        c.insert(
            key,
            Entry {
                stamp: *stamp,
                racy_hash,
                doc: Some(doc),
                skips,
                cost,
                tick: 0,
                used_at: Instant::now(),
            },
        );
    }

    /// Marks an entry's content as verified: once its modification is old
    /// enough, the stamp alone is trusted from then on.
    pub fn confirm(&self, path: &Path, lang: SupportLang, stamp: &Stamp) {
        if is_racy(stamp) {
            return;
        }
        let mut c = self.lock();
        if let Some(e) = c.map.get_mut(&(path.to_path_buf(), lang)) {
            if e.stamp == *stamp {
                e.racy_hash = None;
            }
        }
    }

    /// Drops every entry for `path` or a path under it (component-wise); an
    /// empty path drops everything.
    pub fn invalidate(&self, path: &Path) {
        let mut c = self.lock();
        if path.as_os_str().is_empty() {
            c.clear();
            return;
        }
        let gone: Vec<Key> = c
            .map
            .keys()
            .filter(|(p, _)| p.starts_with(path))
            .cloned()
            .collect();
        for k in gone {
            c.remove(&k);
        }
        let gone: Vec<ResultsKey> = c
            .results
            .keys()
            .filter(|((p, _), _)| p.starts_with(path))
            .cloned()
            .collect();
        for k in gone {
            c.remove_results(&k);
        }
    }

    /// Sets the byte budget (0 disables the cache and empties it).
    pub fn set_budget(&self, bytes: usize) {
        let mut c = self.lock();
        c.budget = bytes;
        if bytes == 0 {
            c.clear();
        }
        c.evict();
        c.evict_results();
    }

    /// Entries, estimated bytes held, hits and misses so far.
    pub fn stats(&self) -> (usize, usize, u64, u64) {
        let c = self.lock();
        (
            c.map.len() + c.results.len(),
            c.used + c.results_used,
            c.hits,
            c.misses,
        )
    }
}

/// Whether an entry for a file of this stamp must keep a hash: its
/// modification was recent when the stamp was taken (a later check would
/// count the time spent reading and parsing as age).
fn is_racy(stamp: &Stamp) -> bool {
    match stamp.mtime {
        Some(m) => match stamp.seen.duration_since(m) {
            Ok(age) => age < RACY,
            Err(_) => true, // modified "in the future"
        },
        None => true,
    }
}

impl Cache {
    fn touch(&mut self, key: &Key) {
        self.tick += 1;
        let t = self.tick;
        if let Some(e) = self.map.get_mut(key) {
            self.lru.remove(&e.tick);
            e.tick = t;
            self.lru.insert(t, key.clone());
        }
    }

    fn insert(&mut self, key: Key, mut e: Entry) {
        self.remove(&key);
        if !self.make_room(e.cost) {
            return;
        }
        self.tick += 1;
        e.tick = self.tick;
        self.used += e.cost;
        self.lru.insert(e.tick, key.clone());
        self.map.insert(key, e);
        self.evict();
    }

    fn remove(&mut self, key: &Key) {
        if let Some(e) = self.map.remove(key) {
            self.lru.remove(&e.tick);
            self.used -= e.cost;
        }
    }

    /// Evicts entries unused for [`PROTECT`] until `cost` more bytes fit;
    /// false (nothing evicted) when they cannot.
    fn make_room(&mut self, cost: usize) -> bool {
        let now = Instant::now();
        let mut free = self.budget.saturating_sub(self.used);
        let mut victims = Vec::new();
        for (_, key) in self.lru.iter() {
            if free >= cost {
                break;
            }
            let e = &self.map[key];
            if now.duration_since(e.used_at) < PROTECT {
                return false;
            }
            free += e.cost;
            victims.push(key.clone());
        }
        if free < cost {
            return false;
        }
        for k in victims {
            self.remove(&k);
        }
        true
    }

    /// Evicts least recently used entries until the budget holds.
    fn evict(&mut self) {
        while self.used > self.budget {
            let Some((_, key)) = self.lru.pop_first() else {
                break;
            };
            if let Some(e) = self.map.remove(&key) {
                self.used -= e.cost;
            }
        }
    }

    fn clear(&mut self) {
        self.map.clear();
        self.lru.clear();
        self.used = 0;
        self.results.clear();
        self.results_lru.clear();
        self.results_used = 0;
    }

    fn remove_results(&mut self, key: &ResultsKey) {
        if let Some(r) = self.results.remove(key) {
            self.results_lru.remove(&r.tick);
            self.results_used -= r.cost;
        }
    }

    /// Evicts least recently used results until they fit their share.
    fn evict_results(&mut self) {
        while self.results_used > self.budget / 8 {
            let Some((_, key)) = self.results_lru.pop_first() else {
                break;
            };
            if let Some(r) = self.results.remove(&key) {
                self.results_used -= r.cost;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(src: &str) -> Arc<Doc> {
        use ast_grep_core::tree_sitter::LanguageExt;
        Arc::new(SupportLang::Go.ast_grep(src))
    }

    fn old_stamp(size: u64) -> Stamp {
        Stamp {
            size,
            mtime: Some(SystemTime::now() - Duration::from_secs(60)),
            ino: 1,
            dev: 1,
            ctime: None,
            seen: SystemTime::now(),
        }
    }

    #[test]
    fn racy_is_judged_when_the_stamp_was_taken() {
        // Modified a second before the stat, stored two seconds later:
        // still not trusted alone.
        let now = SystemTime::now();
        let st = Stamp {
            size: 3,
            mtime: Some(now - Duration::from_secs(3)),
            ino: 3,
            dev: 1,
            ctime: None,
            seen: now - Duration::from_secs(2),
        };
        assert!(is_racy(&st));
        assert!(!is_racy(&Stamp { seen: now, ..st }));
        // Identity ignores when the stamp was taken.
        assert_eq!(st, Stamp { seen: now, ..st });
    }

    #[test]
    fn budget_evicts_least_recent_and_stamps_invalidate() {
        let c = ParseCache::new(1 << 20);
        let st = old_stamp(10);
        let a = Path::new("/t/a.go");
        let b = Path::new("/t/sub/b.go");
        c.store_doc(a, SupportLang::Go, &st, doc("package a\n"));
        c.store_doc(b, SupportLang::Go, &st, doc("package b\n"));
        assert!(matches!(
            c.lookup(a, SupportLang::Go, &st, 0),
            Found::Doc(_)
        ));
        // Another stamp: a miss, and the stale entry goes.
        assert!(matches!(
            c.lookup(a, SupportLang::Go, &old_stamp(11), 0),
            Found::Miss
        ));
        assert!(matches!(c.lookup(a, SupportLang::Go, &st, 0), Found::Miss));
        // Skip records.
        c.store_skip(a, SupportLang::Go, &st, 42, b"package a\n");
        assert!(matches!(c.lookup(a, SupportLang::Go, &st, 42), Found::Skip));
        assert!(matches!(c.lookup(a, SupportLang::Go, &st, 43), Found::Miss));
        // Invalidation by directory.
        c.invalidate(Path::new("/t/sub"));
        assert!(matches!(c.lookup(b, SupportLang::Go, &st, 0), Found::Miss));
        assert!(matches!(c.lookup(a, SupportLang::Go, &st, 42), Found::Skip));
        // A full cache of recently used entries admits no new one (a
        // cyclic scan over more than fits keeps hitting what fits).
        let (_, used, _, _) = c.stats();
        c.set_budget(used + 10);
        c.store_skip(b, SupportLang::Go, &st, 7, b"x");
        assert!(matches!(c.lookup(a, SupportLang::Go, &st, 42), Found::Skip));
        assert!(matches!(c.lookup(b, SupportLang::Go, &st, 7), Found::Miss));
        // Shrinking the budget evicts regardless.
        c.set_budget(1);
        assert!(matches!(c.lookup(a, SupportLang::Go, &st, 42), Found::Miss));
        // A fresh modification keeps a hash to verify.
        let fresh = Stamp {
            size: 1,
            mtime: Some(SystemTime::now()),
            ino: 2,
            dev: 1,
            ctime: None,
            seen: SystemTime::now(),
        };
        c.set_budget(1 << 20);
        c.store_skip(a, SupportLang::Go, &fresh, 5, b"y");
        assert!(
            matches!(c.lookup(a, SupportLang::Go, &fresh, 5), Found::Verify(h, None, true) if h == content_hash(b"y"))
        );
        // Results: found by file, matcher and stamp; dropped by a new
        // stamp and by invalidation; never kept for a fresh modification.
        let mut rec = FileRecord::new(super::super::search::Status::Searched, "");
        rec.message = "kept".into();
        c.store_results(a, SupportLang::Go, &st, 9, &rec);
        c.store_results(b, SupportLang::Go, &fresh, 9, &rec);
        assert!(c
            .lookup_results(a, SupportLang::Go, &st, 9)
            .is_some_and(|r| r.message == "kept"));
        assert!(c.lookup_results(a, SupportLang::Go, &st, 8).is_none());
        assert!(c.lookup_results(b, SupportLang::Go, &fresh, 9).is_none());
        assert!(c
            .lookup_results(a, SupportLang::Go, &old_stamp(12), 9)
            .is_none());
        assert!(c.lookup_results(a, SupportLang::Go, &st, 9).is_none());
        c.store_results(a, SupportLang::Go, &st, 9, &rec);
        c.invalidate(Path::new("/t"));
        assert!(c.lookup_results(a, SupportLang::Go, &st, 9).is_none());
        // Past their share of the budget, the least recent go first.
        c.set_budget(8 * (ENTRY_COST + 20 + rec.cost()) * 3);
        for i in 0..4 {
            c.store_results(Path::new(&format!("/r/{i}")), SupportLang::Go, &st, 1, &rec);
        }
        assert!(c
            .lookup_results(Path::new("/r/0"), SupportLang::Go, &st, 1)
            .is_none());
        assert!(c
            .lookup_results(Path::new("/r/3"), SupportLang::Go, &st, 1)
            .is_some());
        c.set_budget(0);
        assert_eq!(c.stats().0, 0);
        // Caches are independent values.
        let other = ParseCache::new(1 << 20);
        other.store_doc(a, SupportLang::Go, &st, doc("package a\n"));
        assert!(matches!(
            other.lookup(a, SupportLang::Go, &st, 0),
            Found::Doc(_)
        ));
        assert!(matches!(c.lookup(a, SupportLang::Go, &st, 0), Found::Miss));
    }
}
