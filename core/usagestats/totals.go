package usagestats

import "github.com/gopi-agent/gopi/core/session"

// Totals sums the requests of a group (all of them, one model, one
// folder). Its JSON form uses the field names of omp's `stats --json`.
type Totals struct {
	Requests   int64   `json:"totalRequests"`
	Failed     int64   `json:"failedRequests"`
	Input      int64   `json:"totalInputTokens"`
	Output     int64   `json:"totalOutputTokens"`
	CacheRead  int64   `json:"totalCacheReadTokens"`
	CacheWrite int64   `json:"totalCacheWriteTokens"`
	Cost       float64 `json:"totalCost"`
	First      int64   `json:"firstTimestamp"` // Unix milliseconds of the earliest request (0: none)
	Last       int64   `json:"lastTimestamp"`  // and of the latest

	durSum, ttftSum, tpsSum float64
	durN, ttftN, tpsN       int64
}

// add counts one request.
func (t *Totals) add(u *session.RequestUsage) {
	t.Requests++
	if u.StopReason == "error" {
		t.Failed++
	}
	t.Input += u.Input
	t.Output += u.Output
	t.CacheRead += u.CacheRead
	t.CacheWrite += u.CacheWrite
	t.Cost += u.Cost
	if u.Duration >= 0 {
		t.durSum += u.Duration
		t.durN++
		if u.Duration > 0 {
			t.tpsSum += float64(u.Output) * 1000 / u.Duration
			t.tpsN++
		}
	}
	if u.TTFT >= 0 {
		t.ttftSum += u.TTFT
		t.ttftN++
	}
	if u.Timestamp > 0 {
		if t.First == 0 || u.Timestamp < t.First {
			t.First = u.Timestamp
		}
		if u.Timestamp > t.Last {
			t.Last = u.Timestamp
		}
	}
}

// merge adds o's counts to t.
func (t *Totals) merge(o *Totals) {
	t.Requests += o.Requests
	t.Failed += o.Failed
	t.Input += o.Input
	t.Output += o.Output
	t.CacheRead += o.CacheRead
	t.CacheWrite += o.CacheWrite
	t.Cost += o.Cost
	t.durSum, t.durN = t.durSum+o.durSum, t.durN+o.durN
	t.ttftSum, t.ttftN = t.ttftSum+o.ttftSum, t.ttftN+o.ttftN
	t.tpsSum, t.tpsN = t.tpsSum+o.tpsSum, t.tpsN+o.tpsN
	if o.First != 0 && (t.First == 0 || o.First < t.First) {
		t.First = o.First
	}
	if o.Last > t.Last {
		t.Last = o.Last
	}
}

// ErrorRate is the share of requests that ended in an error (0 to 1).
func (t *Totals) ErrorRate() float64 { return ratio(float64(t.Failed), float64(t.Requests)) }

// CacheRate is the share of prompt tokens read from the provider's cache:
// cacheRead / (input + cacheRead).
func (t *Totals) CacheRate() float64 {
	return ratio(float64(t.CacheRead), float64(t.Input+t.CacheRead))
}

// AvgDuration is the mean request duration in milliseconds; ok is false
// when no request recorded one.
func (t *Totals) AvgDuration() (ms float64, ok bool) {
	return ratio(t.durSum, float64(t.durN)), t.durN > 0
}

// AvgTTFT is the mean time to the first token in milliseconds; ok is false
// when no request recorded one.
func (t *Totals) AvgTTFT() (ms float64, ok bool) {
	return ratio(t.ttftSum, float64(t.ttftN)), t.ttftN > 0
}

// AvgTokensPerSecond is the mean output rate of the requests with a
// duration; ok is false when there are none.
func (t *Totals) AvgTokensPerSecond() (float64, bool) {
	return ratio(t.tpsSum, float64(t.tpsN)), t.tpsN > 0
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
