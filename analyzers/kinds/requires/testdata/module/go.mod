module example.com/req

go 1.22
