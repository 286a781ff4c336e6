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

// Locked has a mutex beside 13 fields.
type Locked struct {
	mu            sync.Mutex
	a, b, c, d, e int
	f, g, h, i, j string
	k, l          []byte
	sync.RWMutex
	m bool
}

// Small has a mutex beside 2.
type Small struct {
	mu   sync.RWMutex
	x, y int
}
