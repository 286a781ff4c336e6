package notebook

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// viewCell is one cell of an edited text view.
type viewCell struct {
	kind   string // code, markdown or raw
	index  int    // the file's cell the marker names; -1 for a new cell
	line   int    // the marker's line, from 1
	source string
}

// markerRE matches a marker line: "# %% [TYPE]" and an optional
// " cell:N".
var markerRE = regexp.MustCompile(`^# %% \[(code|markdown|raw)\](?: cell:(\d+))?$`)

// parseView splits a text view into cells. A marker's number too large
// for an int is kept as the largest int, which no notebook has.
func parseView(text string) ([]viewCell, error) {
	if text == "" {
		return nil, nil
	}
	var cells []viewCell
	var body []string
	flush := func() {
		if len(cells) > 0 {
			cells[len(cells)-1].source = strings.Join(body, "\n")
		}
		body = body[:0]
	}
	for n, line := range strings.Split(text, "\n") {
		m := markerRE.FindStringSubmatch(line)
		if m == nil {
			if len(cells) == 0 {
				return nil, errNoMarker
			}
			body = append(body, line)
			continue
		}
		flush()
		c := viewCell{kind: m[1], index: -1, line: n + 1}
		if m[2] != "" {
			i, err := strconv.Atoi(m[2])
			if err != nil {
				i = int(^uint(0) >> 1)
			}
			c.index = i
		}
		cells = append(cells, c)
	}
	flush()
	return cells, nil
}

// CellError is an edit naming a cell the notebook does not have.
type CellError struct {
	Line  int // the marker's line in the edited text, from 1
	Index int // the cell it names
	Cells int // how many cells the file has
}

func (e *CellError) Error() string {
	have := "has no cells"
	switch {
	case e.Cells == 1:
		have = "has 1 cell (cell:0)"
	case e.Cells > 1:
		have = fmt.Sprintf("has %d cells (cell:0 to cell:%d)", e.Cells, e.Cells-1)
	}
	return fmt.Sprintf("line %d of the edited notebook text names cell:%d, but the notebook %s; read it again if it changed, and mark a cell to add without a number, e.g. \"# %%%% [code]\"", e.Line, e.Index, have)
}

// errNoMarker is the error of a text that does not start with a marker.
var errNoMarker = errors.New(`the edited notebook text must start with a cell marker line such as "# %% [code] cell:0" (or "# %% [markdown]" for a new cell)`)
