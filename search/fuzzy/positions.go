package fuzzy

// Positions returns the best score and the byte offsets in candidate of the
// characters of one best-scoring alignment, or false when the query does
// not match. It keeps the whole DP table, so it allocates; Find calls it
// only for the results it returns.
func (m *Matcher) Positions(candidate string) (int, []int, bool) {
	if len(m.query) == 0 {
		return 0, nil, true
	}
	if !m.prefilter(candidate) {
		return 0, nil, false
	}
	var sc Scratch
	n := m.load(candidate, &sc)
	if n > maxCandidateRunes {
		return 0, nil, false
	}
	lo, hi := m.window(sc.folded)
	base := basenameStart(sc.text)
	rows := make([][]int32, len(m.query))
	for i := range rows {
		rows[i] = make([]int32, n)
	}
	m.row0(&sc, rows[0], lo, hi, base)
	for i := 1; i < len(m.query); i++ {
		m.row(&sc, i, rows[i-1], rows[i], lo, hi, base)
	}

	last := rows[len(rows)-1]
	j := lo
	for k := lo; k <= hi; k++ {
		if last[k] > last[j] {
			j = k
		}
	}
	score := last[j]
	if score <= negInf/2 {
		return 0, nil, false
	}
	pos := make([]int, len(m.query))
	pos[len(pos)-1] = int(sc.offs[j])
	// Walk back: find a predecessor k whose cell plus the link cost
	// reproduces the current cell.
	for i := len(m.query) - 1; i > 0; i-- {
		own := rows[i][j] - int32(ScoreMatch+boundaryBonus(sc.text, j)+basenameBonus(j, base))
		prev := rows[i-1]
		k := -1
		if j-1 >= lo && prev[j-1] > negInf/2 && prev[j-1]+BonusConsecutive == own {
			k = j - 1
		} else {
			for c := j - 2; c >= lo; c-- {
				if prev[c] > negInf/2 && prev[c]-GapStart-GapExtend*int32(j-c-2) == own {
					k = c
					break
				}
			}
		}
		if k < 0 {
			panic("fuzzy: inconsistent DP table") // unreachable: row() built it
		}
		j = k
		pos[i-1] = int(sc.offs[j])
	}
	return int(score), pos, true
}
