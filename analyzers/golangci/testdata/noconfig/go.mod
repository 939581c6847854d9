module example.com/noconfig

go 1.26
