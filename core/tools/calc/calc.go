// Package calc is the calc tool: it evaluates a batch of arithmetic
// expressions and returns each result between its prefix and suffix, one
// line per expression.
//
// The language is omp's calculator: numbers, + - * / % **, a unary sign
// and parentheses, nothing else (no functions, names or units). Literals
// are decimal (12, 3.5, .5, 1e10, 2.5E-3) or prefixed integers (0xff,
// 0b1010, 0o755). Arithmetic is JavaScript's float64 arithmetic, % keeps
// the sign of the dividend, ** is right-associative and binds tighter
// than a sign on its left. Results are written as JavaScript's String()
// writes numbers, so the text matches omp's to the digit. A result that
// is not finite, or any error, fails the whole batch: there are no
// partial results.
//
// The tool is offered when the calc.enabled setting is on (off by
// default, as in omp).
package calc

import (
	"context"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// Name is the tool's name.
const Name = "calc"

const description = `Evaluates arithmetic exactly as written, for numbers you would otherwise work out in your head.

<instruction>
- Operators: + - * / % ** (power, right-associative) and parentheses; a leading + or - sign.
- Literals: decimal (12, 3.5, .5, 1e-3) and integer hex (0x1F), binary (0b101) and octal (0o17).
- No functions, variables, constants or units: write sqrt(16) as 16 ** 0.5.
</instruction>

<output>
One line per calculation: its prefix, the result, its suffix. One failing expression fails the whole call.
</output>`

// Calculation is one expression of a call.
type Calculation struct {
	Expression string `json:"expression"` // the arithmetic to evaluate
	Prefix     string `json:"prefix"`     // text put before the result
	Suffix     string `json:"suffix"`     // text put after the result
}

// Result is one evaluated calculation, in Details.
type Result struct {
	Expression string  `json:"expression"` // as given
	Value      float64 `json:"value"`      // the finite result
	Output     string  `json:"output"`     // prefix + formatted value + suffix
}

// Details is the structured part of a calc result.
type Details struct {
	Results []Result `json:"results"` // one per calculation, in order
}

// Tool is the calc tool; it has no state.
type Tool struct{}

// New returns the calc tool.
func New(*tool.Env) tool.Tool { return Tool{} }

// Available reports whether a session offers calc: calc.enabled.
func Available(env *tool.Env) bool { return env.Settings.CalcEnabled }

// Definition describes the tool.
func (Tool) Definition() tool.Definition {
	calculation := tool.Object(map[string]*tool.Schema{
		"expression": {Type: "string", Description: "math expression", Examples: []any{"2 + 2", "sqrt(16)"}},
		"prefix":     tool.String("prefix text"),
		"suffix":     tool.String("suffix text"),
	}, "expression", "prefix", "suffix")
	return tool.Definition{
		Name:        Name,
		Label:       "Calc",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"calculations": {Type: "array", Items: calculation, Description: "calculations to evaluate"},
		}, "calculations"),
		ReadOnly: true,
	}
}

// Execute evaluates every calculation, failing on the first error.
func (Tool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Calculations []Calculation `json:"calculations"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	d, err := Run(ctx, a.Calculations)
	if err != nil {
		return nil, err
	}
	lines := make([]string, len(d.Results))
	for i, r := range d.Results {
		lines[i] = r.Output
	}
	return tool.TextResult(strings.Join(lines, "\n"), d), nil
}

// Run evaluates calculations in order. The first failing one fails the
// batch with its error; ctx stops a long batch between expressions.
func Run(ctx context.Context, calcs []Calculation) (*Details, error) {
	d := &Details{Results: make([]Result, 0, len(calcs))}
	for _, c := range calcs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, err := Evaluate(c.Expression)
		if err != nil {
			return nil, err
		}
		d.Results = append(d.Results, Result{Expression: c.Expression, Value: v, Output: c.Prefix + FormatNumber(v) + c.Suffix})
	}
	return d, nil
}
