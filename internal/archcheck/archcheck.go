package archcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// MaxExportedMethods is the most exported methods one type may declare.
const MaxExportedMethods = 30

// MaxGuarded is the most fields one mutex may guard.
const MaxGuarded = 12

// TypeCount is one type and how many of something it has.
type TypeCount struct {
	Dir   string // the package directory, slash-separated, relative to the root
	Type  string // the type's name
	Count int    // exported methods, or fields guarded by the struct's largest guarded group
}

// String returns "dir.Type (count)".
func (t TypeCount) String() string {
	return t.Dir + "." + t.Type + " (" + strconv.Itoa(t.Count) + ")"
}

// Report is what Scan measured.
type Report struct {
	Methods []TypeCount // every type with an exported method, most first
	Mutexes []TypeCount // every struct with a sync.Mutex or sync.RWMutex field, by the fields its mutexes guard (the largest group), most first
}

// Over returns the counts above limit.
func Over(counts []TypeCount, limit int) []TypeCount {
	var out []TypeCount
	for _, c := range counts {
		if c.Count > limit {
			out = append(out, c)
		}
	}
	return out
}

// Scan parses the non-test Go files under root (skipping testdata and
// hidden directories) and counts each type's exported methods and the
// fields each mutex-holding struct's mutexes guard.
func Scan(root string) (*Report, error) {
	methods := map[TypeCount]int{}
	var rep Report
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(rel)
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv != nil && decl.Name.IsExported() {
					methods[TypeCount{Dir: dir, Type: receiverType(decl.Recv.List[0].Type)}]++
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok {
						continue
					}
					if st, ok := ts.Type.(*ast.StructType); ok {
						if n, ok := guarded(fset, st); ok {
							rep.Mutexes = append(rep.Mutexes, TypeCount{Dir: dir, Type: ts.Name.Name, Count: n})
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for k, n := range methods {
		k.Count = n
		rep.Methods = append(rep.Methods, k)
	}
	sortCounts(rep.Methods)
	sortCounts(rep.Mutexes)
	return &rep, nil
}

// receiverType names the type of a receiver: T, *T, T[P] or *T[P].
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return "?"
		}
	}
}

// guarded reports whether st has a sync.Mutex or sync.RWMutex field
// (named or embedded) and how many fields the largest group guarded by one
// has. By the code's convention a mutex guards the fields that follow it up
// to the next blank line or the next mutex; fields before it are set when
// the value is made (or guarded otherwise, as their comments say). Each
// name of a multi-name field counts.
func guarded(fset *token.FileSet, st *ast.StructType) (int, bool) {
	seen, largest, group := false, 0, -1 // group < 0: not in a guarded group
	prevEnd := 0                         // the last line of the previous field and its comment
	for _, f := range st.Fields.List {
		start := f.Pos()
		if f.Doc != nil {
			start = f.Doc.Pos()
		}
		if prevEnd > 0 && fset.Position(start).Line > prevEnd+1 {
			group = -1 // a blank line ends the group
		}
		end := f.End()
		if f.Comment != nil {
			end = f.Comment.End()
		}
		prevEnd = fset.Position(end).Line
		switch {
		case isMutex(f.Type):
			seen, group = true, 0
		case group >= 0:
			group += max(len(f.Names), 1)
			largest = max(largest, group)
		}
	}
	return largest, seen
}

func isMutex(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "sync" && (sel.Sel.Name == "Mutex" || sel.Sel.Name == "RWMutex")
}

func sortCounts(c []TypeCount) {
	sort.Slice(c, func(i, j int) bool {
		if c[i].Count != c[j].Count {
			return c[i].Count > c[j].Count
		}
		return c[i].String() < c[j].String()
	})
}
