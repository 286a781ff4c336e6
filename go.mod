module github.com/gopi-agent/gopi

go 1.26
