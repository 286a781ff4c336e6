package index

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// The file list is stored in chunks (table files): chunk k holds the
// records of the listed files whose ids lie in [k<<chunkBits,
// (k+1)<<chunkBits), as one encodeFiles blob. A query reads only the
// chunks holding its candidates (the kernel tree's list is 2.4 MB; a
// selective query needs a few dozen of its 1,400 chunks), and a refresh
// writes only the chunks whose files it changed: a changed file gets a
// new id, so its old chunk loses a record and the last chunks gain one.
// 64 records (about 1.8 KB) fit in one 4 KiB page, so a chunk is one
// B-tree leaf read.
const chunkBits = 6

// chunkOf is the chunk holding the record of id.
func chunkOf(id int64) int64 { return id >> chunkBits }

// chunkKeys are the distinct chunks of ascending ids (never nil, which
// scanChunks reads as every chunk).
func chunkKeys(ids []int64) []int64 {
	keys := []int64{}
	for _, id := range ids {
		if k := chunkOf(id); len(keys) == 0 || keys[len(keys)-1] != k {
			keys = append(keys, k)
		}
	}
	return keys
}

// readFiles reads the whole file list, in id order; ErrNoIndex when it
// does not decode.
func readFiles(ctx context.Context, db querier) ([]fileRecord, error) {
	files := make([]fileRecord, 0, 1024)
	err := scanChunks(ctx, db, nil, func(f *fileRecord, path []byte) {
		r := *f
		r.path = string(path)
		files = append(files, r)
	})
	if err != nil {
		return nil, err
	}
	return files, nil
}

// scanChunks calls fn for each record of the chunks keys names
// (ascending; nil: every chunk), in id order, as scanFiles does (the
// path in a reused buffer). A chunk that does not decode, or holds an id
// outside its range, is ErrNoIndex.
func scanChunks(ctx context.Context, db querier, keys []int64, fn func(f *fileRecord, path []byte)) error {
	if keys != nil && len(keys) == 0 {
		return nil
	}
	for len(keys) > 0 || keys == nil {
		q, args := `SELECT chunk, data, sum FROM files ORDER BY chunk`, []any(nil)
		if keys != nil {
			// Bounded batches: SQLite's limit on parameters is 32766.
			batch := keys[:min(len(keys), 1000)]
			keys = keys[len(batch):]
			q = `SELECT chunk, data, sum FROM files WHERE chunk IN (?` + strings.Repeat(", ?", len(batch)-1) + `) ORDER BY chunk`
			for _, k := range batch {
				args = append(args, k)
			}
		}
		if err := scanChunkRows(ctx, db, q, args, fn); err != nil {
			return err
		}
		if keys == nil {
			return nil
		}
	}
	return nil
}

func scanChunkRows(ctx context.Context, db querier, q string, args []any, fn func(f *fileRecord, path []byte)) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, sum int64
		var data sql.RawBytes // valid until Next: decoded before it
		if err := rows.Scan(&k, &data, &sum); err != nil {
			return fmt.Errorf("%w: %v", ErrNoIndex, err)
		}
		if chunkSum(k, data) != sum {
			return fmt.Errorf("%w (chunk %d of the file list)", errDamaged, k)
		}
		bad := false
		err := scanFiles(data, func(f *fileRecord, path []byte) {
			if chunkOf(f.id) != k {
				bad = true
			}
			if !bad {
				fn(f, path)
			}
		})
		if err == nil && bad {
			err = errBadList
		}
		if err != nil {
			return fmt.Errorf("%w: chunk %d of the file list: %v", ErrNoIndex, k, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	return nil
}

// readDirs reads the directory list; ErrNoIndex when it is missing or
// does not decode.
func readDirs(ctx context.Context, db querier) ([]dirState, error) {
	b, err := readList(ctx, db, "dirs")
	if err != nil {
		return nil, asNoIndex(err)
	}
	dirs, err := decodeDirs(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	return dirs, nil
}

// readLists reads the file and directory lists; ErrNoIndex when they are
// missing or do not decode.
func readLists(ctx context.Context, db querier) ([]fileRecord, []dirState, error) {
	files, err := readFiles(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	dirs, err := readDirs(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	return files, dirs, nil
}

// readUnindexed reads the ascending ids of the files not in the postings
// (every query searches them).
func readUnindexed(ctx context.Context, db querier) ([]int64, error) {
	b, err := readList(ctx, db, "unindexed")
	if err != nil {
		return nil, asNoIndex(err)
	}
	ids, err := decodePostings([]int64{}, b)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	return ids, nil
}

// unindexedIDs are the ids of files (ascending) not in the postings.
func unindexedIDs(files []fileRecord) []int64 {
	ids := []int64{}
	for i := range files {
		if !files[i].indexed {
			ids = append(ids, files[i].id)
		}
	}
	return ids
}

// writeLists replaces the file and directory lists (a build's).
func writeLists(ctx context.Context, tx *sql.Tx, files []fileRecord, dirs []dirState) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM files`); err != nil {
		return fmt.Errorf("write the file list: %w", err)
	}
	if err := writeChunks(ctx, tx, files, chunkKeys(ids(files))); err != nil {
		return err
	}
	if err := writeUnindexed(ctx, tx, files); err != nil {
		return err
	}
	return writeDirs(ctx, tx, dirs)
}

func ids(files []fileRecord) []int64 {
	out := make([]int64, len(files))
	for i := range files {
		out[i] = files[i].id
	}
	return out
}

// writeChunks writes the chunks keys (ascending) of the list files
// (ascending ids) as they now are: a chunk left without records is
// deleted.
func writeChunks(ctx context.Context, tx *sql.Tx, files []fileRecord, keys []int64) error {
	put, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO files(chunk, data, sum) VALUES(?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("write the file list: %w", err)
	}
	defer put.Close()
	rest := files
	for _, k := range keys {
		lo, _ := slices.BinarySearchFunc(rest, k<<chunkBits, func(f fileRecord, id int64) int { return cmp.Compare(f.id, id) })
		hi, _ := slices.BinarySearchFunc(rest, (k+1)<<chunkBits, func(f fileRecord, id int64) int { return cmp.Compare(f.id, id) })
		if lo == hi {
			_, err = tx.ExecContext(ctx, `DELETE FROM files WHERE chunk = ?`, k)
		} else {
			data := encodeFiles(rest[lo:hi])
			_, err = put.ExecContext(ctx, k, data, chunkSum(k, data))
		}
		if err != nil {
			return fmt.Errorf("write the file list: %w", err)
		}
		rest = rest[hi:]
	}
	return nil
}

// changedChunks are the chunks in which the lists before and after
// (both ascending by id) differ: ids dropped, added or recorded anew.
func changedChunks(before, after []fileRecord) []int64 {
	var touched []int64
	touch := func(id int64) { touched = append(touched, chunkOf(id)) }
	i, j := 0, 0
	for i < len(before) || j < len(after) {
		switch {
		case j == len(after) || i < len(before) && before[i].id < after[j].id:
			touch(before[i].id)
			i++
		case i == len(before) || after[j].id < before[i].id:
			touch(after[j].id)
			j++
		default:
			if before[i] != after[j] {
				touch(before[i].id)
			}
			i++
			j++
		}
	}
	slices.Sort(touched)
	return slices.Compact(touched)
}

// droppedIDs are the ids of before not in after (both ascending by id).
func droppedIDs(before, after []fileRecord) []int64 {
	var out []int64
	j := 0
	for i := range before {
		for j < len(after) && after[j].id < before[i].id {
			j++
		}
		if j == len(after) || after[j].id != before[i].id {
			out = append(out, before[i].id)
		}
	}
	return out
}

// writeUnindexed replaces the list of the ids not in the postings.
func writeUnindexed(ctx context.Context, tx *sql.Tx, files []fileRecord) error {
	var b []byte
	var last int64
	for _, id := range unindexedIDs(files) {
		b = appendPosting(b, last, id)
		last = id
	}
	if b == nil {
		b = []byte{} // NOT NULL
	}
	if err := writeList(ctx, tx, "unindexed", b); err != nil {
		return fmt.Errorf("write the file list: %w", err)
	}
	return nil
}

// writeDirs replaces the directory list, and the list of the directories
// in it that could not be read (meta "denied": grep reports those, so
// searches that would meet one walk; see Index.deniedBelow).
func writeDirs(ctx context.Context, tx *sql.Tx, dirs []dirState) error {
	if err := writeList(ctx, tx, "dirs", encodeDirs(dirs)); err != nil {
		return fmt.Errorf("write the directory list: %w", err)
	}
	return writeMetaValues(ctx, tx, map[string]string{"denied": strings.Join(deniedDirs(dirs), "\n")})
}

// deniedDirs are the directories of dirs that could not be read.
func deniedDirs(dirs []dirState) []string {
	var denied []string
	for _, d := range dirs {
		if d.names == "" { // namesDigest could not read it
			denied = append(denied, d.path)
		}
	}
	return denied
}
