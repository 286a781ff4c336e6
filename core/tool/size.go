package tool

import "github.com/gopi-agent/gopi/internal/humansize"

// FormatSize renders a byte count for people: "512B", "1.5KB", "2.0MB"
// (see humansize.Format).
func FormatSize(n int64) string { return humansize.Format(n) }
