package websearch

import (
	"fmt"
	"strings"
	"time"
)

// dateLayouts are the date forms providers send (ISO dates and times,
// HTTP dates, "January 2, 2006").
var dateLayouts = []string{
	time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05", "2006-01-02 15:04:05",
	"2006-01-02", time.RFC1123, time.RFC1123Z, "January 2, 2006", "Jan 2, 2006", "2 January 2006",
}

// ageOf is the age in seconds of date at now, nil when date is empty or
// not a date.
func ageOf(date string, now time.Time) *int64 {
	date = strings.TrimSpace(date)
	if date == "" {
		return nil
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, date); err == nil {
			s := int64(now.Sub(t) / time.Second)
			return &s
		}
	}
	return nil
}

// formatAge writes an age as "3d ago", "2mo ago", "just now"; "" for no age.
func formatAge(age *int64) string {
	if age == nil || *age == 0 {
		return ""
	}
	mins := floorDiv(*age, 60)
	hours := floorDiv(mins, 60)
	days := floorDiv(hours, 24)
	switch {
	case floorDiv(days, 30) > 0:
		return fmt.Sprintf("%dmo ago", floorDiv(days, 30))
	case floorDiv(days, 7) > 0:
		return fmt.Sprintf("%dw ago", floorDiv(days, 7))
	case days > 0:
		return fmt.Sprintf("%dd ago", days)
	case hours > 0:
		return fmt.Sprintf("%dh ago", hours)
	case mins > 0:
		return fmt.Sprintf("%dm ago", mins)
	}
	return "just now"
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
