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

// MaxGuarded is the most fields a mutex should sit beside in one struct.
const MaxGuarded = 12

// TypeCount is one type and how many of something it has.
type TypeCount struct {
	Dir   string // the package directory, slash-separated, relative to the root
	Type  string // the type's name
	Count int    // exported methods, or fields beside the mutex
}

// String returns "dir.Type (count)".
func (t TypeCount) String() string {
	return t.Dir + "." + t.Type + " (" + strconv.Itoa(t.Count) + ")"
}

// Report is what Scan measured.
type Report struct {
	Methods []TypeCount // every type with an exported method, most first
	Mutexes []TypeCount // every struct with a sync.Mutex or sync.RWMutex field, by fields beside it, most first
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
// hidden directories) and counts each type's exported methods and each
// mutex-holding struct's other fields.
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
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
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
						if n, ok := besideMutex(st); ok {
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

// besideMutex reports whether st has a sync.Mutex or sync.RWMutex field
// (named or embedded) and how many other fields it has (each name of a
// multi-name field counts).
func besideMutex(st *ast.StructType) (int, bool) {
	fields, mutexes := 0, 0
	for _, f := range st.Fields.List {
		n := max(len(f.Names), 1)
		if isMutex(f.Type) {
			mutexes += n
			continue
		}
		fields += n
	}
	return fields, mutexes > 0
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
