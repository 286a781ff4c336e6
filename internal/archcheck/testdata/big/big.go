package big

import "sync"

// Big has 31 exported methods.
type Big struct{}

func (*Big) M0()  {}
func (*Big) M1()  {}
func (*Big) M2()  {}
func (*Big) M3()  {}
func (*Big) M4()  {}
func (*Big) M5()  {}
func (*Big) M6()  {}
func (*Big) M7()  {}
func (*Big) M8()  {}
func (*Big) M9()  {}
func (*Big) M10() {}
func (*Big) M11() {}
func (*Big) M12() {}
func (*Big) M13() {}
func (*Big) M14() {}
func (*Big) M15() {}
func (*Big) M16() {}
func (*Big) M17() {}
func (*Big) M18() {}
func (*Big) M19() {}
func (*Big) M20() {}
func (*Big) M21() {}
func (*Big) M22() {}
func (*Big) M23() {}
func (*Big) M24() {}
func (*Big) M25() {}
func (*Big) M26() {}
func (*Big) M27() {}
func (*Big) M28() {}
func (*Big) M29() {}
func (*Big) M30() {}

func (Big) unexported() {}

// Generic has 2.
type Generic[T any] struct{ v T }

func (g *Generic[T]) A() {}
func (g Generic[T]) B()  {}

// Locked has a mutex guarding 13 fields, between fields it does not guard.
type Locked struct {
	made int // set when made: before the mutex

	mu            sync.Mutex
	a, b, c, d, e int
	f, g, h, i, j string
	// k and l are guarded too: a comment line is not a blank line.
	k, l []byte
	n    int // the thirteenth

	after int // a blank line ended the group
	sync.RWMutex
	m bool
}

// Split has two mutexes guarding 7 fields each: the next mutex ends a group.
type Split struct {
	mu1                 sync.Mutex
	a, b, c, d, e, f, g int
	mu2                 sync.Mutex
	h, i, j, k, l, m, n int
}

// Small has a mutex guarding 2.
type Small struct {
	mu   sync.RWMutex
	x, y int
}
