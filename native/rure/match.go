package rure

// Match is one match reported by Iter.Next, as a half-open byte range of
// the haystack.
type Match struct{ Start, End int }
