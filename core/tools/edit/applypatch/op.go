package applypatch

import (
	"errors"
	"fmt"
	"io/fs"
)

// ApplyOp applies one file operation, as omp's patch applier does for
// patch mode's {op, rename, diff} and for each section of an apply_patch
// envelope:
//
//   - AddFile writes Diff as the whole file (see CreateContent), creating
//     missing parent directories; a file already there is replaced;
//   - DeleteFile removes the file;
//   - UpdateFile reads Diff's hunks (ParseDiffHunks), places them in the
//     file and writes it, at MovePath when that is set (the source then
//     goes).
//
// It is all or nothing for the file: an error leaves the disk as it was.
// Errors name the file by its path as written.
func ApplyOp(op FileOp, fsys FS) ([]Change, error) {
	abs := fsys.Abs(op.Path)
	if op.MovePath != "" && fsys.Abs(op.MovePath) == abs {
		return nil, errors.New("rename path is the same as source path")
	}
	switch op.Kind {
	case AddFile:
		if op.Diff == "" {
			return nil, errors.New("Create operation requires diff (file content)")
		}
		return create(op.Path, abs, CreateContent(op.Diff), fsys)
	case DeleteFile:
		if err := mustExist(op.Path, abs, fsys); err != nil {
			return nil, err
		}
		res, err := ApplyHunks([]Hunk{{Kind: DeleteFile, Path: op.Path}}, fsys)
		return res.Changes, err
	}
	if op.Diff == "" {
		return nil, errors.New("Update operation requires diff (hunks)")
	}
	if err := mustExist(op.Path, abs, fsys); err != nil {
		return nil, err
	}
	chunks, err := ParseDiffHunks(op.Diff)
	if err != nil {
		return nil, err
	}
	res, err := ApplyHunks([]Hunk{{Kind: UpdateFile, Path: op.Path, MovePath: op.MovePath, Chunks: chunks}}, fsys)
	return res.Changes, err
}

// create writes content as the whole file at abs: a new file (with its
// missing parent directories), or an existing one replaced.
func create(path, abs, content string, fsys FS) ([]Change, error) {
	fi, err := fsys.Stat(abs)
	if err != nil {
		res, err := ApplyHunks([]Hunk{{Kind: AddFile, Path: path, Contents: content}}, fsys)
		return res.Changes, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("Cannot create %s: it is a directory; name a file", path)
	}
	if err := fsys.CanReplace(abs); err != nil {
		return nil, fmt.Errorf("Failed to write file %s: %v", path, err)
	}
	old, err := fsys.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("Failed to read file %s: %s", path, ioReason(err))
	}
	if err := fsys.WriteFile(abs, []byte(content)); err != nil {
		return nil, fmt.Errorf("Failed to write file %s: %s", path, ioReason(err))
	}
	return []Change{{Kind: AddFile, Path: path, AbsPath: abs, Old: string(old), New: content}}, nil
}

// mustExist fails with omp's text when there is no file at abs.
func mustExist(path, abs string, fsys FS) error {
	if _, err := fsys.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("File not found: %s", path)
	}
	return nil
}
