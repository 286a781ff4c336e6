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

	// The sums behind the averages (kept in the cache; not printed).
	DurSum  float64 `json:"-"`
	DurN    int64   `json:"-"`
	TTFTSum float64 `json:"-"`
	TTFTN   int64   `json:"-"`
	RateSum float64 `json:"-"` // output tokens per second, summed over the requests with a duration
	RateN   int64   `json:"-"`
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
		t.DurSum += u.Duration
		t.DurN++
		if u.Duration > 0 {
			t.RateSum += float64(u.Output) * 1000 / u.Duration
			t.RateN++
		}
	}
	if u.TTFT >= 0 {
		t.TTFTSum += u.TTFT
		t.TTFTN++
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
	t.DurSum, t.DurN = t.DurSum+o.DurSum, t.DurN+o.DurN
	t.TTFTSum, t.TTFTN = t.TTFTSum+o.TTFTSum, t.TTFTN+o.TTFTN
	t.RateSum, t.RateN = t.RateSum+o.RateSum, t.RateN+o.RateN
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
	return ratio(t.DurSum, float64(t.DurN)), t.DurN > 0
}

// AvgTTFT is the mean time to the first token in milliseconds; ok is false
// when no request recorded one.
func (t *Totals) AvgTTFT() (ms float64, ok bool) {
	return ratio(t.TTFTSum, float64(t.TTFTN)), t.TTFTN > 0
}

// AvgTokensPerSecond is the mean output rate of the requests with a
// duration; ok is false when there are none.
func (t *Totals) AvgTokensPerSecond() (float64, bool) {
	return ratio(t.RateSum, float64(t.RateN)), t.RateN > 0
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
