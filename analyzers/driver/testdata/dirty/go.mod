module example.com/dirty

go 1.26
