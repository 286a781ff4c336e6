package main

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gopi-agent/gopi/perf"
)

// maxRows bounds the rows of one area chart (the summary table has all).
const maxRows = 40

// gopiColor is gopi's colour in every chart; peers take plotutil's palette.
var gopiColor = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}

// point is one tool's median with its interval on one chart row.
type point struct {
	row            int
	median, lo, hi float64
}

// errPoints feeds gonum's scatter and error bars.
type errPoints struct {
	plotter.XYs
	plotter.XErrors
}

// dotPlot draws rows (bottom to top reversed so the first row is on top)
// with one glyph per tool at its median and a horizontal error bar over
// its interval, on a logarithmic x axis.
func dotPlot(title, xlabel string, rows []string, tools []string, pts map[string][]point, refLine float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	rev := make([]string, len(rows))
	for i, r := range rows {
		rev[len(rows)-1-i] = r
	}
	p.NominalY(rev...)
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	lo, hi := math.Inf(1), math.Inf(-1)
	for ti, tool := range tools {
		list := pts[tool]
		if len(list) == 0 {
			continue
		}
		data := errPoints{}
		for _, pt := range list {
			// Offset tools a little so their bars do not overlap.
			y := float64(len(rows)-1-pt.row) + (float64(ti)-float64(len(tools)-1)/2)*0.18
			data.XYs = append(data.XYs, plotter.XY{X: pt.median, Y: y})
			data.XErrors = append(data.XErrors, struct{ Low, High float64 }{pt.median - pt.lo, pt.hi - pt.median})
			lo, hi = math.Min(lo, pt.lo), math.Max(hi, pt.hi)
		}
		sc, err := plotter.NewScatter(data)
		if err != nil {
			return nil, err
		}
		col := plotutil.Color(ti)
		if tool == "gopi" {
			col = gopiColor
		}
		sc.Color = col
		sc.Shape = plotutil.Shape(ti)
		sc.Radius = vg.Points(3)
		eb, err := plotter.NewXErrorBars(data)
		if err != nil {
			return nil, err
		}
		eb.Color = col
		p.Add(sc, eb)
		p.Legend.Add(tool, sc)
	}
	if refLine > 0 {
		ref, err := plotter.NewLine(plotter.XYs{{X: refLine, Y: -0.5}, {X: refLine, Y: float64(len(rows)) - 0.5}})
		if err == nil {
			ref.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			ref.Color = color.Gray{Y: 0x80}
			p.Add(ref)
		}
		lo, hi = math.Min(lo, refLine), math.Max(hi, refLine)
	}
	if lo > 0 && !math.IsInf(hi, 0) {
		p.X.Min, p.X.Max = lo/1.5, hi*1.5
	}
	return p, nil
}

// saveSVG writes p as an SVG through the atomic write path.
func saveSVG(p *plot.Plot, path string, w, h vg.Length) error {
	wt, err := p.WriterTo(w, h, "svg")
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}

// writeAreaSVG draws an area: one row per case and metric, gopi and each
// peer at their medians with 95 % intervals.
func writeAreaSVG(path string, a areaResult) error {
	var rows []string
	rowOf := map[string]int{}
	toolSet := map[string]bool{}
	pts := map[string][]point{}
	total := 0
	for _, r := range a.recs {
		s := perf.Summarize(r.Samples)
		if s.Median <= 0 || s.Lo <= 0 {
			continue
		}
		label := r.Case + " · " + r.Metric
		if r.Unit != "" {
			label += " (" + r.Unit + ")"
		}
		row, ok := rowOf[label]
		if !ok {
			total++
			if len(rows) >= maxRows {
				continue
			}
			row = len(rows)
			rowOf[label] = row
			rows = append(rows, shorten(label, 70))
		}
		toolSet[r.Tool] = true
		pts[r.Tool] = append(pts[r.Tool], point{row, s.Median, s.Lo, s.Hi})
	}
	if len(rows) == 0 {
		return nil
	}
	tools := sortedTools(toolSet)
	title := fmt.Sprintf("%s: median and 95%% interval per case (log scale)", a.name)
	if total > len(rows) {
		title += fmt.Sprintf(", first %d of %d rows", len(rows), total)
	}
	p, err := dotPlot(title, "value (unit in each row's label)", rows, tools, pts, 0)
	if err != nil {
		return err
	}
	return saveSVG(p, path, 11*vg.Inch, vg.Length(1.6+0.3*float64(len(rows)))*vg.Inch)
}

// sortedTools puts gopi first, then the peers by name.
func sortedTools(set map[string]bool) []string {
	var out []string
	for t := range set {
		if t != "gopi" {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	if set["gopi"] {
		out = append([]string{"gopi"}, out...)
	}
	return out
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// writeHeadlineSVG draws the headline figures: peer time ÷ gopi time, so
// a bar right of the dashed line at 1 means gopi is faster.
func writeHeadlineSVG(path string, heads []headline) error {
	var rows []string
	pts := map[string][]point{}
	for i, h := range heads {
		rows = append(rows, fmt.Sprintf("%s (%d cases)", h.Name, h.Cases))
		pts["peer ÷ gopi"] = append(pts["peer ÷ gopi"], point{i, h.Ratio, h.Lo, h.Hi})
	}
	p, err := dotPlot("gopi against its peers: how many times faster (geometric mean, 95% interval)", "peer time ÷ gopi time (log scale; right of 1: gopi faster)", rows, []string{"peer ÷ gopi"}, pts, 1)
	if err != nil {
		return err
	}
	p.Legend.Top = false
	return saveSVG(p, path, 9*vg.Inch, vg.Length(1.6+0.5*float64(len(rows)))*vg.Inch)
}

// writeTrendSVG draws each headline figure across the commits in history.
func writeTrendSVG(path string, hist []historyEntry) error {
	p := plot.New()
	p.Title.Text = "headline figures across commits (peer time ÷ gopi time, 95% interval)"
	p.Y.Label.Text = "peer ÷ gopi (log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	var labels []string
	series := map[string]plotter.XYs{}
	errs := map[string]plotter.YErrors{}
	var names []string
	for i, e := range hist {
		labels = append(labels, shorten(e.Commit, 14))
		for _, h := range e.Headlines {
			if h.Ratio <= 0 || h.Lo <= 0 {
				continue
			}
			if _, ok := series[h.Name]; !ok {
				names = append(names, h.Name)
			}
			series[h.Name] = append(series[h.Name], plotter.XY{X: float64(i), Y: h.Ratio})
			errs[h.Name] = append(errs[h.Name], struct{ Low, High float64 }{h.Ratio - h.Lo, h.Hi - h.Ratio})
		}
	}
	p.NominalX(labels...)
	p.Add(plotter.NewGrid())
	for i, name := range names {
		type yerr struct {
			plotter.XYs
			plotter.YErrors
		}
		d := yerr{series[name], errs[name]}
		l, sc, err := plotter.NewLinePoints(d)
		if err != nil {
			return err
		}
		l.Color, sc.Color, sc.Shape = plotutil.Color(i), plotutil.Color(i), plotutil.Shape(i)
		eb, err := plotter.NewYErrorBars(d)
		if err != nil {
			return err
		}
		eb.Color = plotutil.Color(i)
		p.Add(l, sc, eb)
		p.Legend.Add(name, l, sc)
	}
	p.Legend.Top = true
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign = draw.XRight
	return saveSVG(p, path, 9*vg.Inch, 4.5*vg.Inch)
}
