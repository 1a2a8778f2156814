use low::a;
