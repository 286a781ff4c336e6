package job

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseByteSize reads ripgrep's --max-filesize syntax: a number with an
// optional K, M or G suffix (powers of 1024).
func ParseByteSize(s string) (int64, error) {
	mult := int64(1)
	switch strings.ToUpper(s[len(s)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	num := s
	if mult > 1 {
		num = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("--max-filesize %q: give a size in bytes, optionally with a K, M or G suffix (e.g. 10M)", s)
	}
	return n * mult, nil
}
