/* The program of the small C tree tests/kernel/bw-programs.sh builds with make -j2. */
#include <stdio.h>

double unit1(int n), unit2(int n), unit3(int n), unit4(int n), unit5(int n), unit6(int n);

int main(void)
{
	printf("%g\n", unit1(8) + unit2(8) + unit3(8) + unit4(8) + unit5(8) + unit6(8));
	return 0;
}
