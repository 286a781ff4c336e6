package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Posting lists read within a set of ids are the whole lists intersected
// with it, over many segments and a delta; and an AND's candidates (which
// may stop reading lists early) always include every file whose text
// satisfies the query.
func TestEvalWithinSegmentsAndDelta(t *testing.T) {
	root := bigTree(t)
	for i := range 40 { // other cases than the last variant of each trigram
		writeFile(t, root, fmt.Sprintf("cased/c%02d.txt", i), fmt.Sprintf("Many File %d Says Number%d\n", i, i))
	}
	o := testOptions(t, root)
	o.flushBytes = 512 // many segments
	mustBuild(t, o)
	for i := range 12 {
		writeFile(t, root, "many/d2/m0"+string(rune('1'+i%9))+"2.txt", "refreshed: many file says number2 and alpha_value\n")
		if _, err := Refresh(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	ix, err := Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.segs < 4 || len(ix.delta.tris) == 0 {
		t.Fatalf("%d segments, %d delta trigrams: want several and some", ix.segs, len(ix.delta.tris))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, lit := range []string{"man", "ny ", "fil", "num", "ber", "r2 ", "alp", "e s", "zzz"} {
		tri := trigramOf(lit)
		all, err := ix.posting(ctx, tri, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.IsSorted(all) || len(slices.Compact(slices.Clone(all))) != len(all) {
			t.Fatalf("%q: ids not ascending and unique: %v", lit, all)
		}
		for range 5 {
			var within []int64
			for id := int64(1); id < 800; id++ {
				if r.IntN(3) == 0 {
					within = append(within, id)
				}
			}
			got, err := ix.posting(ctx, tri, within)
			if err != nil {
				t.Fatal(err)
			}
			if want := intersect(within, all); !slices.Equal(got, want) {
				t.Fatalf("%q within %d ids: %v, want %v", lit, len(within), got, want)
			}
		}
	}
	files, err := readFiles(ctx, ix.tx)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []string{"many file", "says number2", "file 1 says number1", "alpha_value", "refreshed: many", "Many.*[Ff]il", "MANY FILE 1", "Says Number2"} {
		q, _ := Plan(p, i >= 6)
		ids, err := ix.eval(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.path)))
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := slices.BinarySearch(ids, f.id); f.indexed && q.Eval(trigramsOfText(text)) && !ok && ids != nil {
				t.Errorf("%q: %s (id %d) satisfies the query but is no candidate", p, f.path, f.id)
			}
		}
	}
}

// An AND of ORs (a case-insensitive literal: each trigram with its case
// variants) keeps reading its conditions while many candidates remain:
// their sizes are not known beforehand, so the byte test does not stop it.
func TestEvalReadsORsWhileManyCandidates(t *testing.T) {
	root := bigTree(t)
	o := testOptions(t, root)
	mustBuild(t, o)
	ctx := context.Background()
	ix, err := Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	// A common OR first (every "many" file), a rare one after it.
	q := and(or(triQuery(trigramOf("man")), triQuery(trigramOf("MAN"))), or(triQuery(trigramOf("r29")), triQuery(trigramOf("zzq"))))
	if q.Op != OpAnd || q.Sub[0].Op != OpOr || q.Sub[0].String() > q.Sub[1].String() {
		t.Fatalf("query %s: want an AND of a common OR, then a rare one", q)
	}
	ids, err := ix.eval(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if ids == nil || len(ids) > 2*enoughCandidates {
		t.Errorf("%d candidates for a query a few files satisfy (nil: every file)", len(ids))
	}
}
