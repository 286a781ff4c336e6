package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/browser"
	writetool "github.com/gopi-agent/gopi/core/tools/write"
)

// screenshotGate is the browser tool's SaveGate: a screenshot saved to a
// file the model or the settings name is checked as a call of the write
// tool on that path, through the session's hooks (svc.CallThrough: plan
// mode's guard, the permission gate), so it asks and is refused where the
// write tool would be. The content the hooks see is a short placeholder
// naming the PNG's size; the bytes are written by write (atomic path).
func screenshotGate(env *tool.Env, svc *Services) browser.SaveGate {
	return func(ctx context.Context, abs string, size int, write func() error) error {
		if err := env.CheckPlanWrite(abs); err != nil {
			return err
		}
		if svc.CallThrough == nil {
			return write()
		}
		args := tool.Args{"path": abs, "content": fmt.Sprintf("[PNG screenshot, %d bytes]", size)}
		res, err := svc.CallThrough(ctx, "write", writetool.New(env), args, func() (*tool.Result, error) {
			if err := write(); err != nil {
				return nil, err
			}
			return tool.TextResult("Saved the screenshot to "+abs, nil), nil
		})
		if err != nil {
			return fmt.Errorf("the screenshot was not saved to %s: %w", abs, err)
		}
		if res != nil && res.IsError {
			var texts []string
			for _, c := range res.Content {
				if tc, ok := c.(*tool.TextContent); ok {
					texts = append(texts, tc.Text)
				}
			}
			return errors.New(strings.Join(texts, "\n"))
		}
		return nil
	}
}
