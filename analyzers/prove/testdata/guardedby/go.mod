module example.com/guardedby

go 1.26.0
