module example.com/cfamily

go 1.26
